"""How a question reaches the process that answers it: the transport under a door.

A door (``grader.harness.door``) turns a test's question into ``Request``s and
their ``Reply``s into values or faults. The transport only carries them:

* ``InProcess`` (here): the implementation runs in this process. Students'
  runs, and the staff's own trusted checks.
* ``grader.isolation.transport.Sandboxed`` (staff only): sandboxed worker
  processes, reached through the ``pytest_assignment_transport`` hook.

Three processes answer questions, named by ``Request.process``:

* ``main``      the implementation under test;
* ``separate``  the implementation again, in a process that never saw what
                ``main`` was asked (a checkpoint written by one is read by the
                other, so a report cannot echo the state it was given), with the
                question's module imported alone there too;
* ``clean``     no implementation at all: the harness's own measurements
                (timing a matmul, the CUDA allocator), where no submission ever
                ran and so nothing can have been tampered with;
* ``alone``     the implementation with one module imported, and only what that
                module imports (``ALONE``: every module). A ``main`` question about a
                module is answered here (``process_for``), so a module's code runs
                only where its own part (or a part whose module imports it) is asked:
                another module cannot have replaced the functions a test reads the
                source of (Parts 4-7), and a line that reaches into the harness
                (``grader.harness.tamper``) can touch only the parts it fails.

In process all three are this process. Whatever a worker answers is a claim:
the outcome is decoded strictly (``grader.harness.wire``) and checked by the
trusted side; only ``wall_seconds`` and ``cpu_seconds`` are measured by the
transport itself, from outside the process that ran the call.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Literal, Protocol

Process = Literal["main", "separate", "clean", "alone"]
# the modules answered by a worker that imported that module alone: all of them
ALONE = ("strides", "dtypes", "memory", "flops", "roofline", "named", "gradients", "model", "training",
         "mixed_precision")
GRACE_SECONDS = 2.0  # a call's own alarm goes off first; the transport kills the process this much later


@dataclass(frozen=True)
class Observe:
    """What the transport is to see of one call from outside the process that answers it, besides its
    wall and CPU time, where it can (``Reply`` carries what it saw; None where it could not). An observed
    request is never sent ahead, so that what is seen is of that call alone."""

    # a file name: how files of that name are mapped into the process after the call, and how far its
    # resident memory rose during it (a file read into memory, where it should have been mapped)
    watch: str | None = None
    # hold the process stopped for most of the call (``STALL``): a figure the call measures must take the
    # stops in, a figure it makes up does not
    stall: bool = False
    # an absolute path: whether it was made in the process's own filesystem during the call, removed again or
    # not (code a checkpoint's pickle ran, whatever the call says it did)
    trace: str | None = None
    # the seconds the answering thread spent off the CPU by its own doing (a sleep, a wait on a lock or a
    # thread, I/O) during the call: its wall time less its CPU time and its time waiting for a CPU the machine
    # gave others, all three the kernel's (a timed loop that sleeps looks, by its clock alone, like a busy one)
    waits: bool = False

    def __bool__(self) -> bool:
        return self.watch is not None or self.stall or self.trace is not None or self.waits


@dataclass(frozen=True)
class Request:
    """One question: run probe ``probe`` on ``args`` in ``process``."""

    probe: str  # a probe's wire name (``grader.harness.probe.Probe.name``)
    args: tuple  # plain data, as the wire carries it
    subject: str  # the spec function a failure is reported against
    timeout: float  # seconds the call may run before its own alarm stops it
    process: Process = "main"
    # functions that already ran out of time in this run: calling one fails at once
    stuck: tuple[tuple[str, str], ...] = ()
    # what the transport sees of the call from outside, besides its time
    observe: Observe = Observe()

    @property
    def alone(self) -> str | None:
        """The module an ``alone`` request's process imports (the subject's), else None."""
        return alone_module(self.subject) if self.process == "alone" else None

    def to_wire(self) -> dict[str, Any]:
        return {"op": "probe", "probe": self.probe, "args": list(self.args), "timeout": self.timeout,
                "subject": self.subject, "stuck": [list(pair) for pair in self.stuck]}

    @property
    def hard_limit(self) -> float:
        """When the transport stops waiting: the call's own alarm, then some grace."""
        return self.timeout * 1.1 + GRACE_SECONDS


@dataclass(frozen=True)
class Mapping:
    """One mapping of a file into a process, as the kernel lists it in /proc/<pid>/maps."""

    start: int  # its first address
    end: int  # one past its last
    perms: str  # "r--s", "rw-p" ...
    inode: int = 0  # the mapped file's inode (which file of that name it is)


@dataclass(frozen=True)
class Reply:
    """The implementation side's outcome (see ``grader.harness.runner``), and what the call cost,
    measured by the transport from outside the process that answered."""

    outcome: dict[str, Any]
    wall_seconds: float = 0.0
    cpu_seconds: float = 0.0
    # with Observe.watch: every mapping of such a file in the process that answered (where it lies and
    # its permissions), read from the kernel's /proc/<pid>/maps; None where that cannot be seen
    mapped: tuple[Mapping, ...] | None = None
    # with Observe.watch: how far that process's resident memory rose during the call, in bytes, above where
    # it stood when the call began (the kernel's peak, reset then from outside); None where that cannot be seen
    grew: int | None = None
    # with Observe.stall: the seconds the process was held stopped during the call; None where it was not
    stalled: float | None = None
    # with Observe.trace: whether the path was made in the process's filesystem during the call (and a moment
    # more: what a thread the call left behind does next counts too); None where that cannot be seen
    traced: bool | None = None
    # with Observe.watch: the bytes the process took in through read calls during the call (the kernel's
    # rchar, read from outside: a file streamed through read() raises it, a memory map's pages do not, and
    # no page cache hides it); None where that cannot be seen
    read: int | None = None
    # with Observe.waits: the seconds the answering thread spent off the CPU by its own doing; None where the
    # kernel does not say
    waited: float | None = None
    # with Observe.trace: whether a thread or child process the call started was still running a moment after
    # it returned (what it runs there is no longer timed as the call's); None where that cannot be seen
    left_running: bool | None = None


@dataclass(frozen=True)
class Protections:
    """What kept the implementation in its box, as the trusted side set it up (never as a worker says)."""

    mode: str  # "in process", "root", "user namespace", "none available"
    applied: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()  # wanted, but the kernel refused: said loudly in the outputs


@dataclass
class Session:
    """What a transport learned over a whole run, for the grader's record."""

    protections: Protections = field(default_factory=lambda: Protections("in process"))
    output: str = ""  # what the implementation printed, capped
    # the CPU seconds the implementation's workers used in all (its code, and their handling of each question),
    # read from outside each before it was stopped; None where the implementation ran in this process
    worker_cpu_seconds: float | None = None


class Transport(Protocol):
    """Carries requests to the processes that answer them."""

    label: str

    def exchange(self, requests: list[Request], on_reply: OnReply | None = None) -> list[Reply | BaseException]:
        """Answer ``requests`` in order. A request that could not be answered (timeout, crash,
        a malformed answer) gives its ``grader.harness.faults.Fault`` in its place; the
        requests after it are still tried (on a fresh process where one was lost).
        ``on_reply(index, reply)`` is told of each as it comes, before the rest are answered; where it
        returns True, the rest are left unanswered (a test's budget spent: its later asks are refused)."""
        ...

    def session(self) -> Session:
        ...

    def close(self) -> None:
        ...


OnReply = Callable[[int, "Reply | BaseException"], "bool | None"]  # True: answer no more of the exchange


def alone_module(subject: str) -> str | None:
    """The module of ``subject`` (``gradients.linear_backward``) if it is one of ``ALONE``."""
    module = subject.partition(".")[0]
    return module if module in ALONE else None


def process_for(declared: Process, subject: str) -> Process:
    """Where a question about ``subject`` is answered: a probe's declared process, but ``alone`` for
    a ``main`` question about one of the modules."""
    return "alone" if declared == "main" and alone_module(subject) else declared


def answer_in_order(requests: list[Request], one: Callable[[Request], Reply],
                    on_reply: OnReply | None = None) -> list[Reply | BaseException]:
    """Answer ``requests`` one after the other with ``one``, a fault in place of a request it could
    not answer. A function that runs out of time is stubbed out for the requests after it in the
    same exchange: a batch of questions costs a stuck function's time limit once, not once each.
    One whose process died (a crash, a memory limit) is not called again in the exchange: the
    later requests about it get the same fault, instead of a fresh process each to kill.
    ``on_reply`` returning True ends the exchange there."""
    from grader.harness import faults

    replies: list[Reply | BaseException] = []
    stuck: tuple[tuple[str, str], ...] = ()
    crashed: dict[str, faults.CrashFault] = {}
    for index, request in enumerate(requests):
        if request.subject in crashed:
            replies.append(crashed[request.subject])
            if on_reply is not None and on_reply(index, crashed[request.subject]):
                break
            continue
        if stuck:
            request = replace(request, stuck=request.stuck + stuck)
        try:
            reply: Reply | BaseException = one(request)
        except faults.Fault as fault:
            reply = fault
        replies.append(reply)
        if on_reply is not None and on_reply(index, reply):
            break
        if isinstance(reply, faults.CrashFault):
            crashed[request.subject] = reply
        timed_out = _timed_out(reply)
        if timed_out and all(timed_out != name for name, _ in request.stuck + stuck):
            stuck += ((timed_out, "ran out of time earlier in this run"),)
    return replies


def _timed_out(reply: Reply | BaseException) -> str | None:
    """The function a reply says ran out of time, if any."""
    from grader.harness import faults

    if isinstance(reply, faults.TimeoutFault) and not reply.again:
        return reply.function
    if isinstance(reply, Reply) and type(reply.outcome) is dict and reply.outcome.get("status") == "timeout":
        function = reply.outcome.get("function")
        return function if type(function) is str and function else None
    return None


class InProcess:
    """The implementation runs here. Timeouts are the runner's own alarm; nothing can be killed.

    Requests and outcomes still cross the wire format: the callee gets fresh copies it
    cannot alias, and the caller plain values it can trust. ``judges``: this process
    may also answer judges (the trusted side's own questions).
    """

    label = "in process"

    def __init__(self, impl, *, judges: bool = False) -> None:
        from grader.harness.runner import Runner  # the implementation side's code, run here

        self.runner = Runner(impl)
        self.judges = judges

    def exchange(self, requests: list[Request], on_reply: OnReply | None = None) -> list[Reply | BaseException]:
        return answer_in_order(requests, self._one, on_reply)

    def _one(self, request: Request) -> Reply:
        from grader.harness import wire

        sent = wire.roundtrip(request.to_wire())
        if request.observe.watch:
            self.runner.import_ahead(request.subject, request.timeout)
        resident = reset_peak(os.getpid()) if request.observe.watch else None
        reading = bytes_read(os.getpid()) if request.observe.watch else None
        trace = PathWatch(request.observe.trace) if request.observe.trace else None
        waits = thread_waits(None) if request.observe.waits else None
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            outcome = self.runner.answer(sent, judges=self.judges)
        except BaseException:
            if trace is not None:
                trace.close()
            raise
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        waited = waited_since(None, waits, wall)
        traced = trace.made() if trace is not None else None
        mapped = mappings(os.getpid(), request.observe.watch) if request.observe.watch else None
        grew = peak_growth(os.getpid(), resident)
        read = read_since(os.getpid(), reading)
        try:
            return Reply(wire.roundtrip(outcome, answer=True), wall, cpu, mapped, grew, None, traced, read, waited,
                         trace.left_running if trace is not None else None)
        except wire.WireError as error:
            return Reply({"status": "harness_error", "function": request.subject,
                          "message": f"the answer does not cross the wire: {error}"}, wall, cpu)

    def session(self) -> Session:
        return Session(Protections("in process"), "")

    def close(self) -> None:
        pass


def mappings(pid: int, name: str) -> tuple[Mapping, ...] | None:
    """Each mapping of a file called ``name`` in process ``pid``: its address range and permissions
    (None: no /proc here)."""
    try:
        with open(f"/proc/{pid}/maps") as handle:
            text = handle.read()
    except OSError:
        return None
    found = []
    for line in text.splitlines():
        if name not in line:  # a process with torch maps thousands of files: look closer only at these
            continue
        fields = line.split(maxsplit=5)
        if len(fields) == 6 and fields[5].removesuffix(" (deleted)").rsplit("/", 1)[-1] == name:
            start, end = fields[0].split("-")
            found.append(Mapping(int(start, 16), int(end, 16), fields[1], int(fields[4])))
    return tuple(found)


# seconds a trace is waited for after a call that left a thread or a child process running: what it was
# already doing when the call returned (a pickle run in a thread makes its folder before it waits, and the
# call waits on that). A call that left nothing running is not waited for: nothing of it can still act
TRACE_GRACE = 0.05
# <sys/inotify.h>
IN_CREATE, IN_MOVED_TO, IN_ONLYDIR, IN_Q_OVERFLOW = 0x100, 0x80, 0x01000000, 0x4000
IN_NONBLOCK, IN_CLOEXEC = 0o4000, 0o2000000


class PathWatch:
    """Whether ``path`` was made in process ``pid``'s view of the files (None: this process's) during a call:
    watched from before the call with the kernel's inotify on its folder, so that a call that removes it
    again before it returns hides nothing; and, where no watch could be set, whether it is there after the
    call. ``made()`` is None where neither can be seen."""

    def __init__(self, path: str, pid: int | None = None) -> None:
        self.root = "" if pid is None else f"/proc/{pid}/root"
        self.path, self.pid = path, pid
        self.watch = _watch_folder(self.root + os.path.dirname(path))
        self.running = _running(pid)
        # after ``made()``: whether a thread or child process the call started still ran a moment after it
        # returned (None where /proc does not say)
        self.left_running: bool | None = None

    def made(self) -> bool | None:
        if self._left_running():
            time.sleep(TRACE_GRACE)  # what a thread or process the call left behind does next counts too
            self.left_running = self._left_running() if self.running is not None else None
        else:
            self.left_running = False
        try:
            made = self._made()
            if made and not self.root:  # a student's own run leaves no folder behind in /tmp at each run (a
                with contextlib.suppress(OSError):  # worker's files go with the worker, and are not touched)
                    os.rmdir(self.path)
            return made
        finally:
            self.close()

    def _made(self) -> bool | None:
        if self.watch is not None and _created(*self.watch, os.path.basename(self.path)):
            return True
        if self.root and not os.access(self.root + "/", os.R_OK | os.X_OK):
            return None
        try:
            os.lstat(self.root + self.path)
            return True
        except FileNotFoundError:
            return False
        except OSError:
            return None

    def _left_running(self) -> bool:
        """Whether a thread or child process started in the call may still be running (or it cannot be told)."""
        after = _running(self.pid)
        return self.running is None or after is None or not after <= self.running

    def close(self) -> None:
        if self.watch is not None:
            _unwatch(*self.watch)
            self.watch = None


def _running(pid: int | None) -> frozenset[str] | None:
    """The threads of process ``pid`` (None: this one) and their child processes, as ids; None where /proc
    does not say (no children lists in this kernel)."""
    tasks = f"/proc/{'self' if pid is None else pid}/task"
    try:
        threads = os.listdir(tasks)
    except OSError:
        return None
    found = set(threads)
    for thread in threads:
        try:
            with open(f"{tasks}/{thread}/children") as handle:
                found.update(f"child {child}" for child in handle.read().split())
        except (FileNotFoundError, ProcessLookupError):
            if os.path.exists(f"{tasks}/{thread}"):
                return None  # the thread is there and its list is not: this kernel keeps none
            found.discard(thread)  # it ended since the folder was listed
        except OSError:
            return None
    return frozenset(found)


# Closing an inotify descriptor waits for the kernel to retire its marks: about 10 ms here, where adding a
# watch and removing it again take 0.02 ms. A process keeps the descriptors it made and hands each to one
# watch at a time; a forked child starts with none of its own (the parent's are shared with it, events and all).
_IDLE_DESCRIPTORS: list[int] = []
_IDLE_LOCK = threading.Lock()


def _forget_idle_descriptors() -> None:
    with contextlib.suppress(OSError):
        for fd in _IDLE_DESCRIPTORS:
            os.close(fd)  # the parent's still hold them: only a reference is dropped, at once
    _IDLE_DESCRIPTORS.clear()


os.register_at_fork(after_in_child=_forget_idle_descriptors)


def _watch_folder(folder: str) -> tuple[int, int] | None:
    """(an inotify descriptor, the watch on it) watching ``folder`` for names made or moved in; None where
    there is none."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        with _IDLE_LOCK:
            fd = _IDLE_DESCRIPTORS.pop() if _IDLE_DESCRIPTORS else libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
    except (OSError, AttributeError):
        return None
    if fd < 0:
        return None
    wd = libc.inotify_add_watch(fd, os.fsencode(folder), IN_CREATE | IN_MOVED_TO | IN_ONLYDIR)
    if wd < 0:
        _idle(fd)
        return None
    return fd, wd


def _unwatch(fd: int, wd: int) -> None:
    """The watch removed, its descriptor kept for the next (what is left on it read and dropped)."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).inotify_rm_watch(fd, wd)
    _idle(fd)


def _idle(fd: int) -> None:
    with contextlib.suppress(OSError):
        while os.read(fd, 1 << 16):
            pass
    with _IDLE_LOCK:
        _IDLE_DESCRIPTORS.append(fd)


def _created(fd: int, wd: int, name: str) -> bool:
    """Whether watch ``wd`` saw ``name`` made or moved in. A queue that overflowed counts as seen: only a call
    that made thousands of names in that folder overflows it, and could have hidden one among them."""
    wanted = os.fsencode(name)
    while True:
        try:
            events = os.read(fd, 1 << 16)
        except BlockingIOError:
            return False
        at = 0
        while at + 16 <= len(events):  # struct inotify_event: wd, mask, cookie, len, then the name
            watch = int.from_bytes(events[at:at + 4], "little", signed=True)
            mask = int.from_bytes(events[at + 4:at + 8], "little")
            length = int.from_bytes(events[at + 12:at + 16], "little")
            if mask & IN_Q_OVERFLOW or (watch == wd and events[at + 16:at + 16 + length].rstrip(b"\0") == wanted):
                return True
            at += 16 + length


def _status_bytes(pid: int, field: str) -> int | None:
    """One memory figure of /proc/<pid>/status (``VmRSS``, ``VmHWM``), in bytes; None where unseen."""
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def reset_peak(pid: int) -> int | None:
    """Reset process ``pid``'s peak resident memory to what it holds now (``clear_refs`` 5: the kernel's
    own figure, which the process cannot lower again: a worker's per-process files belong to root, or its
    /proc is read-only, ``grader/isolation/view.py``); returns what it holds, in bytes, or None where the
    peak cannot be reset here."""
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as handle:
            handle.write("5")
    except OSError:
        return None
    return _status_bytes(pid, "VmRSS")


def peak_growth(pid: int, resident: int | None) -> int | None:
    """How far ``pid``'s peak resident memory now stands above ``resident`` (``reset_peak``'s), in bytes."""
    peak = _status_bytes(pid, "VmHWM") if resident is not None else None
    return None if peak is None else max(peak - resident, 0)


def bytes_read(pid: int) -> int | None:
    """The bytes process ``pid`` has taken in through read calls so far (``rchar`` of /proc/<pid>/io, all its
    threads), or None where that cannot be read here."""
    try:
        with open(f"/proc/{pid}/io") as handle:
            for line in handle:
                if line.startswith("rchar:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def read_since(pid: int, before: int | None) -> int | None:
    """The bytes ``pid`` has read since ``bytes_read`` gave ``before``."""
    after = bytes_read(pid) if before is not None else None
    return None if after is None else max(after - before, 0)


def cpu_beside_main_thread(pid: int) -> float | None:
    """CPU time a process's threads but its main one have used, alive or ended (Linux: read from /proc, in clock
    ticks); None where it cannot be read."""
    try:
        seconds = []
        for path in (f"/proc/{pid}/stat", f"/proc/{pid}/task/{pid}/stat"):  # the process's, its main thread's
            with open(path) as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            seconds.append((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return None
    return max(seconds[0] - seconds[1], 0.0)


@dataclass(frozen=True)
class ThreadWaits:
    """One reading of a thread's time, as its kernel counts it (``thread_waits``)."""

    ran: float  # seconds on a CPU
    queued: float  # seconds waiting for a CPU (the run-queue delay)
    cpu: int | None  # the CPU it ran on last
    # each CPU's steal time so far (``machine_steal``): seconds the hypervisor ran something else while that CPU
    # had work, during which a thread on it is neither on a CPU nor queued for one, as its kernel counts
    stolen: tuple[float, ...]


def thread_waits(pid: int | None) -> ThreadWaits | None:
    """The answering thread's times: this process's calling thread (pid None), or process ``pid``'s first thread
    (a worker answers on it), as the kernel counts them; None where it does not say. The kernel brings a
    thread's CPU time up to date when it stops running: a worker, read while it waits for its next question,
    reads exact; this thread, running, reads its own clock instead."""
    tid = threading.get_native_id() if pid is None else pid
    task = f"/proc/{'self' if pid is None else pid}/task/{tid}"
    try:
        with open(f"{task}/schedstat") as handle:
            ran, queued = (int(field) / 1e9 for field in handle.read().split()[:2])
        with open(f"{task}/stat") as handle:
            cpu: int | None = int(handle.read().rsplit(")", 1)[1].split()[36])  # field 39, `processor`
    except (OSError, ValueError, IndexError):
        return None
    return ThreadWaits(time.thread_time() if pid is None else ran, queued, cpu, machine_steal())


def machine_steal() -> tuple[float, ...]:
    """Each CPU's steal time since boot, in seconds, by CPU number (Linux's /proc/stat; none where it does not
    say). A virtual machine's CPU waits while its host runs another: its kernel counts that time as neither
    a thread's run nor its wait for a CPU, and so it would read as the thread's own waiting."""
    stolen: dict[int, float] = {}
    try:
        tick = os.sysconf("SC_CLK_TCK")
        with open("/proc/stat") as handle:
            for line in handle:
                name, *fields = line.split()
                if name.startswith("cpu") and name != "cpu" and len(fields) >= 8:
                    stolen[int(name[3:])] = int(fields[7]) / tick
    except (OSError, ValueError, AttributeError):  # (no os.sysconf off POSIX)
        return ()
    return tuple(stolen.get(cpu, 0.0) for cpu in range(max(stolen, default=-1) + 1))


def stolen_between(before: ThreadWaits, after: ThreadWaits, *others: ThreadWaits) -> float:
    """The steal time, between two readings, of the CPUs the readings (``others`` too) saw their threads on, each
    counted once: at least what the host took from a thread that ran on those alone (more where another thread
    shared them; less where it passed through a CPU it was seen on at neither end, which a busy thread rarely
    does)."""
    cpus = {reading.cpu for reading in (before, after, *others) if reading.cpu is not None}
    return sum(max(after.stolen[cpu] - before.stolen[cpu], 0.0) for cpu in cpus
               if cpu < min(len(before.stolen), len(after.stolen)))


def waited_since(pid: int | None, before: ThreadWaits | None, wall: float,
                 beside: ThreadWaits | None = None) -> float | None:
    """The seconds of ``wall`` the answering thread (see ``thread_waits``) spent neither on a CPU, nor waiting
    for one, nor on a CPU its host took (steal time) since ``before``: its own waits. Honest compute reads about
    0 (a little under, at times: a wait for the CPU that began before the call counts whole; steal is counted in
    clock ticks). ``beside``: this thread's reading taken with ``before``, where this thread reads another
    process's answering thread: that one, once it has answered, waits (blocked, as if by its own doing) until
    this thread runs and reads the kernel's figures, so this thread's waits for a CPU (its queue's and its
    host's) since then are the machine's too."""
    after = thread_waits(pid) if before is not None else None
    ours = thread_waits(None) if beside is not None else None
    if before is None or after is None or (beside is not None and ours is None):
        return None
    waited = wall - (after.ran - before.ran) - (after.queued - before.queued)
    if beside is None:
        return waited - stolen_between(before, after)
    return waited - (ours.queued - beside.queued) - stolen_between(before, after, beside, ours)


def process_cpu_seconds(pid: int) -> float:
    """CPU time a process has used, read from outside it (Linux: its CPU-time clock)."""
    try:
        return time.clock_gettime(((~pid) << 3) | 2)  # CPUCLOCK_SCHED of the whole process
    except OSError:
        try:
            with open(f"/proc/{pid}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return 0.0
