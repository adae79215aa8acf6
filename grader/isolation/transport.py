"""The trusted side of isolation: a transport to sandboxed worker processes.

``Sandboxed`` keeps warm workers per submission, one per process role of
``grader.harness.transport``: ``main`` (the submission), ``separate`` (the
submission again, never told what ``main`` was asked; its question's module imported
alone there too, ``separate:<module>``), ``clean`` (no
submission, the harness's own measurements) and one ``alone:<module>`` for each
module (that module imported alone: ``grader.harness.transport.ALONE``). A worker is reused across calls
until it misbehaves: a call that runs past its limit, a worker that dies
(segfault, ``os._exit``, a resource limit), an answer that is not well-formed,
or an output flood; then it is killed with everything it started, the call
gets its fault, and the next call a fresh worker. The grader never waits on a
worker without an absolute deadline.

What a call cost (wall clock, the worker's CPU clock), how a file is mapped
into the worker, and how much memory its process tree holds are read here, from
outside the worker.
"""

from __future__ import annotations

import collections
import os
import secrets
import select
import shutil
import signal
import socket
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from grader.harness import faults, wire
from grader.harness.show import printable
from grader.harness.transport import (ALONE, GRACE_SECONDS, OnReply, PathWatch, Protections, Reply, Request,
                                      Session, alone_module, answer_in_order, bytes_read, cpu_beside_main_thread,
                                      mappings, peak_growth, process_cpu_seconds, read_since, reset_peak,
                                      thread_waits, waited_since)
from grader.isolation import cgroups, framing
from grader.isolation.sandbox import Limits, fresh_uid_base
from grader.isolation.server import (IMPORT_AFTER_A_HANG, IMPORT_TIMEOUT, ForkServerHandle,  # noqa: F401
                                     stage_harness)

# Observe.stall: the worker held stopped (SIGSTOP) for STALL_STOPPED of every STALL_RUNNING + STALL_STOPPED
# seconds. A running spell shorter than any timed product stretches every product's wall time, whatever
# statistic a timer takes of them. (Threads throttled by a one-CPU quota lose as much in the plain calls:
# the test then asks that the figure take the seconds held stopped in, not that it grow.)
STALL_RUNNING, STALL_STOPPED = 0.003, 0.009


def _waited(pid: int, before: tuple | None, wall: float) -> float | None:
    """The seconds of ``wall`` worker ``pid``'s answering thread waited by its own doing (``waited_since``, beside
    this thread's own waits for a CPU meanwhile): ``before``, the worker's reading and this thread's."""
    if before is None or before[1] is None:
        return None
    return waited_since(pid, before[0], wall, beside=before[1])


class ProcessHandle:
    """A process to signal, held by a pidfd opened while it runs: a signal sent after it ended goes nowhere,
    where one sent to its number could reach whatever process took the number since (a worker may start
    threads enough to run through the machine's pids in a call, and this process signals as root)."""

    def __init__(self, pid: int) -> None:
        self.pid, self.closed = pid, False
        self._lock = threading.Lock()  # a thread's signal never goes through a descriptor closed meanwhile
        try:
            self.fd: int | None = os.pidfd_open(pid)
        except (AttributeError, OSError):  # no pidfds here (Linux before 5.3): the number, as before
            self.fd = None

    def send(self, sig: int) -> None:
        """Raises OSError (ProcessLookupError where it has ended, or once closed)."""
        with self._lock:
            if self.closed:
                raise ProcessLookupError(self.pid, "closed")
            if self.fd is None:
                os.kill(self.pid, sig)
            else:
                signal.pidfd_send_signal(self.fd, sig)

    def close(self) -> None:
        with self._lock:
            if self.fd is not None:
                try:
                    os.close(self.fd)
                except OSError:
                    pass
            self.fd, self.closed = None, True


class Staller:
    """Holds a process stopped for most of the time, from a thread of this process, until ``stop``."""

    def __init__(self, process: ProcessHandle) -> None:
        self.process, self.stalled, self.failed = process, 0.0, False
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="staller", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._done.wait(STALL_RUNNING):
            try:
                self.process.send(signal.SIGSTOP)
                began = time.monotonic()
                self._done.wait(STALL_STOPPED)
                self.process.send(signal.SIGCONT)
                self.stalled += time.monotonic() - began
            except OSError:  # gone, or not ours to stop: the call says nothing of stalls
                self.failed = True
                return

    def stop(self) -> float | None:
        """Let the process run again; the seconds it was held stopped (None: it could not be)."""
        self._done.set()
        self._thread.join()
        try:
            self.process.send(signal.SIGCONT)
        except OSError:
            pass
        return None if self.failed else self.stalled


def _rss_mb(pid: int) -> float:
    """Resident memory of a process, in MB (0 if it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0


def _pss_mb(pid: int) -> float:
    """A process's proportional share of memory, in MB: pages shared with the fork server or a
    sibling count by their share, so a tree of forked children is not counted many times over."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return _rss_mb(pid)


def process_tree(pid: int) -> set[int]:
    """A process and all its descendants (by parent pid, as this process's /proc shows them)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    parent = int(handle.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry))
    tree, todo = set(), [pid]
    while todo:
        current = todo.pop()
        if current not in tree:
            tree.add(current)
            todo += children.get(current, [])
    return tree


def tree_memory_mb(pid: int) -> float:
    """Memory held by a worker's whole process tree (threads share their process's)."""
    return sum(_pss_mb(p) for p in process_tree(pid))


def imported_by(folder: Path, module: str) -> list[str]:
    """The submission's files importing ``module`` runs besides its own, as a worker of that module alone
    imports them (``tamper.imported_with``: transitively, the package's ``__init__`` when it holds code); read,
    never run."""
    from grader.harness.tamper import imported_with

    sources = {}
    for path in sorted(folder.glob("*.py")):
        try:
            sources[path.stem] = path.read_text(errors="replace")
        except OSError:
            continue
    return [f"{name}.py" for name in sorted(imported_with(sources, module) - {module})
            if name != "__init__" or sources[name].strip()]


def describe_status(status: int | None) -> str:
    if status is None:
        return "the process running it stopped answering"
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else str(sig)
        why = {
            "SIGSEGV": " (a segmentation fault)",
            "SIGKILL": " (killed: memory, process or time limit)",
            "SIGXCPU": " (CPU time limit)",
            "SIGXFSZ": " (file size limit)",
            "SIGABRT": " (aborted)",
        }.get(name, "")
        return f"the process running it was killed by {name}{why}"
    if os.WIFEXITED(status):
        code = os.WEXITSTATUS(status)
        return f"the process running it exited with status {code} (sys.exit or os._exit?)"
    return f"the process running it ended (status {status})"


class _Worker:
    """One live worker: its pid, channel, private folder, captured output, and how its memory is held."""

    def __init__(self, pid: int, channel: socket.socket, root: Path, output_fd: int, limits: Limits,
                 memory_cgroup: str | None = None, memory_holder: str | None = None) -> None:
        self.pid, self.channel, self.root = pid, channel, root
        self.process = ProcessHandle(pid)  # opened now, while it runs (it has just answered)
        self.memory_cgroup = memory_cgroup  # the kernel limits its tree; else the grader watches it
        self.memory_watch = cgroups.MemoryWatch(memory_cgroup, memory_holder) if memory_cgroup else None
        self.output = bytearray()
        self.output_total = 0
        self.flooded = False
        self.limits = limits
        self._fd = output_fd
        self.reader = threading.Thread(target=self._drain, daemon=True)
        self.reader.start()
        self.next_id = 1
        self.last_answer = 0.0  # when its last answer arrived (monotonic), and its CPU clock then
        self.last_cpu = 0.0
        self.cpu_beside_checked = 0.0  # its CPU clock when its threads beside the answering one were last read
        self.uid: int | None = None
        # the warm worker's own size, torch included (without a cgroup, what its tree may add to is measured from here)
        self.base_mb = 0.0 if memory_cgroup else tree_memory_mb(pid)

    def over_memory(self) -> bool:
        """Whether it holds, or held, more memory than allowed: its group reached its limit, or (no
        group) the memory of its whole process tree, children and threads included, is over it."""
        if self.memory_watch is not None:
            return self.memory_watch.reached()
        return tree_memory_mb(self.pid) > self.base_mb + self.limits.memory_mb

    def _drain(self) -> None:
        keep = self.limits.output_kb * 1024
        flood = self.limits.flood_mb * 2**20
        while True:
            try:
                chunk = os.read(self._fd, 1 << 16)
            except OSError:
                break
            if not chunk:
                break
            self.output_total += len(chunk)
            if len(self.output) < keep:
                self.output += chunk[: keep - len(self.output)]
            if self.output_total > flood and not self.flooded and self.pid > 1:
                self.flooded = True
                try:
                    self.process.send(signal.SIGKILL)
                except OSError:
                    pass
            if len(chunk) < 4096:  # a trickle: let it gather (one-byte writes would cost this process a read each)
                time.sleep(0.005)
        try:
            os.close(self._fd)
        except OSError:
            pass


# each role's worker runs as its own user: uid + this. ``alone:<module>``: a process with that module
# alone imported (see ``Request.alone``), one per module; ``separate:<module>`` too, as ``separate`` (only
# Part 9's checkpoint is read there: one such worker a submission)
ROLES = {"main": 0, "separate": 1, "clean": 2, **{f"alone:{m}": 3 + i for i, m in enumerate(ALONE)}}
UIDS_PER_SLOT = 16
assert len(ROLES) <= UIDS_PER_SLOT


@dataclass
class Sandbox:
    """What a grading process's transports share: the fork server, this slot's users, the limits."""

    server: ForkServerHandle | None = None
    uid: int | None = None  # the slot's first user id (as root); its workers run as uid + ROLES[role]
    limits: Limits = field(default_factory=Limits)


@dataclass(frozen=True)
class _Ahead:
    """A request written to a worker's channel before its turn (see ``Sandboxed._one``)."""

    worker: _Worker
    rid: int
    args: tuple  # the request's own argument tuple: its turn is the request holding this very tuple
    probe: str
    limit: float
    subject: str
    size: int  # bytes on the channel
    sent: float  # when (monotonic)


# CPU seconds a worker's threads but the one answering may use in all: an honest worker has one thread (torch
# with no thread pool, and a timer may not use more, Part 5), while threads its code starts that keep running
# (spinning since its import) slow every call it answers, each under its limit, for the submission's whole time
BESIDE_CPU_LIMIT = 5.0
# read (two files of /proc, the dearest of a question's reads) only once the whole process has used this much
# more CPU since the last reading: the threads beside the answering one cannot have used more than that
BESIDE_CHECK_STEP = 0.25
AHEAD_COUNT = 16  # requests in flight to a worker beyond the one it is answering
AHEAD_BYTES = 32 * 1024  # and at most this many bytes of them: far below a socket's buffer
# requests sent ahead for nothing (an exchange ended early: a test's budget spent) are answered and dropped
# within this many seconds in all, or their worker is stopped (a fresh one answers the next question): each
# waited for up to its time limit, sixteen slow calls held a test minutes past its budget
SETTLE_SECONDS = 2.0


class Sandboxed:
    """A transport whose other side is sandboxed worker processes, one per process role."""

    label = "sandboxed worker"
    concurrent = True  # its workers compute while the grading process does not wait (a lookahead may run)
    holds_up = True  # a worker can be held stopped from out here during a call (``Observe.stall``)

    def __init__(self, package_dir: Path | None, sandbox: Sandbox | None = None) -> None:
        sandbox = sandbox or Sandbox()
        self.source = Path(package_dir) if package_dir is not None else None  # the staged assignment/ package
        self._own_server = sandbox.server is None
        self.server = sandbox.server or ForkServerHandle()
        # as root, workers drop to an unprivileged user: this slot's, or one of a fresh range
        self.uid = sandbox.uid if sandbox.uid is not None else \
            (fresh_uid_base(1) if os.geteuid() == 0 and sandbox.server is None else None)
        self.limits = sandbox.limits
        self.workers: dict[str, _Worker] = {}
        self._ahead: collections.deque[_Ahead] = collections.deque()  # requests sent ahead, in order
        self.dead: dict[str, faults.Fault] = {}  # a role whose worker cannot even start
        self.import_hung = False  # a worker's import of the submission ran to its limit (``_ensure_worker``)
        self.protections = Protections("none available")
        self.output = bytearray()
        self.worker_cpu = 0.0  # what the workers stopped so far used (``Session.worker_cpu_seconds``)
        self._counted: set[int] = set()
        self.key = secrets.token_hex(8)  # names the group all of this submission's workers share

    # -- the transport ---------------------------------------------------------------------
    def exchange(self, requests: list[Request], on_reply: OnReply | None = None) -> list[Reply | BaseException]:
        after = {id(r): i + 1 for i, r in enumerate(requests)}  # where the requests after each one start
        try:
            return answer_in_order(requests, lambda r: self._one(r, requests, after.get(id(r), len(requests))),
                                   on_reply)
        finally:
            self._settle_ahead()

    def _role(self, request: Request) -> str:
        if self.source is None:
            return "clean"
        if request.process == "alone":
            return f"alone:{request.alone}" if request.alone else "main"
        module = alone_module(request.subject) if request.process == "separate" else None
        if module:  # the subject's module and what it imports, as for ``alone``: a module that hangs or breaks
            return f"separate:{module}"  # its process when imported fails its own part, not the checkpoint's too
        return request.process

    def _one(self, request: Request, requests: list[Request] = (), upcoming: int = 0) -> Reply:
        """Answer one request. The requests after it in the exchange (``requests[upcoming:]``) are sent to
        the same worker before this one's answer is read, a few small ones at a time (pipelined): the
        worker starts on the next the moment it has answered, however long this process takes to read
        the answer, and each request's time is counted from the moment its worker could start on it."""
        role = self._role(request)
        if role in self.dead:
            dead = self.dead[role]
            raise faults.TimeoutFault(request.subject, dead.seconds, importing=dead.importing) \
                if isinstance(dead, faults.TimeoutFault) else faults.CrashFault(request.subject, dead.detail)
        worker = self._ensure_worker(role, request.subject)
        head = self._ahead[0] if self._ahead else None
        resident = reading = trace = waits = None  # an observed request is never sent ahead: set up as sent
        if head is not None and head.worker is worker and head.args is request.args and head.probe == request.probe:
            self._ahead.popleft()
            rid, started, cpu = head.rid, max(worker.last_answer, head.sent), worker.last_cpu
        else:
            self._settle_ahead()  # sent ahead for nothing (a request left out): read and dropped
            resident = reset_peak(worker.pid) if request.observe.watch else None
            reading = bytes_read(worker.pid) if request.observe.watch else None
            trace = PathWatch(request.observe.trace, worker.pid) if request.observe.trace else None
            # read while it waits for the question: exact; with this thread's own wait for a CPU, which is the
            # worker's waiting for this thread to read its answer
            waits = (thread_waits(worker.pid), thread_waits(None)) if request.observe.waits else None
            cpu, started = process_cpu_seconds(worker.pid), time.monotonic()
            rid = self._send(worker, request.to_wire(), request.hard_limit, request.subject)
        if not request.observe:
            self._top_up(worker, role, requests, upcoming)
        staller = Staller(worker.process) if request.observe.stall else None
        try:
            outcome = self._answer(worker, rid, started + request.hard_limit, request.hard_limit, request.subject)
        except BaseException:
            if trace is not None:
                trace.close()
            raise
        finally:
            stalled = staller.stop() if staller is not None else None
        worker.last_answer, worker.last_cpu = time.monotonic(), process_cpu_seconds(worker.pid)
        # read as soon as the answer is in, while the worker waits for its next question (nothing is sent ahead
        # of an observed request): a wait of this process's before the read would count as the worker's
        waited = _waited(worker.pid, waits, worker.last_answer - started)
        mapped = mappings(worker.pid, request.observe.watch) if request.observe.watch else None
        grew = peak_growth(worker.pid, resident)
        read = read_since(worker.pid, reading)
        traced = trace.made() if trace is not None else None
        self._beside_check(worker, role, request.subject)
        return Reply(outcome, worker.last_answer - started, max(worker.last_cpu - cpu, 0.0), mapped, grew, stalled,
                     traced, read, waited, trace.left_running if trace is not None else None)

    def _beside_check(self, worker: _Worker, role: str, subject: str) -> None:
        """Stop a worker whose threads beside the answering one have used more than ``BESIDE_CPU_LIMIT``: its
        later questions fail at once, saying why, instead of each running slowly to the submission's limit
        (the answer just read stands: it was computed and checked as any other)."""
        if worker.last_cpu - worker.cpu_beside_checked < BESIDE_CHECK_STEP:
            return  # (at most that much late; read for every question, it cost about a tenth of the grading CPU)
        worker.cpu_beside_checked = worker.last_cpu
        beside = cpu_beside_main_thread(worker.pid)
        if beside is None or beside <= BESIDE_CPU_LIMIT:
            return
        self._kill(worker)
        self.dead[role] = faults.CrashFault(subject, (
            f"it was stopped: threads its code started used {beside:.1f} s of CPU beside the one answering, "
            "slowing every call it answered. Start no thread when a module is imported, end any thread a call "
            "starts before the call returns, and leave torch to one thread"))

    def _top_up(self, worker: _Worker, role: str, requests: list[Request], upcoming: int) -> None:
        """Send small requests ahead, in order, up to ``AHEAD_COUNT`` and ``AHEAD_BYTES`` in flight."""
        position = upcoming + len(self._ahead)
        queued = sum(a.size for a in self._ahead)
        while len(self._ahead) < AHEAD_COUNT and position < len(requests):
            following = requests[position]
            if following.observe or self._role(following) != role:
                return
            text = wire.pack({"id": worker.next_id, **following.to_wire()})
            if queued + len(text) > AHEAD_BYTES:
                return
            try:
                if worker.channel.gettimeout() != 1.0:  # (setting it is two system calls; a question sent ahead
                    worker.channel.settimeout(1.0)  # follows another far more often than a question sent alone)
                framing.send(worker.channel, text)
            except OSError:  # its own turn finds out what is wrong with the worker
                return
            self._ahead.append(_Ahead(worker, worker.next_id, following.args, following.probe,
                                      following.hard_limit, following.subject, len(text), time.monotonic()))
            worker.next_id += 1
            queued += len(text)
            position += 1

    def _settle_ahead(self) -> None:
        """Requests sent ahead that nobody asks for after all: read their answers and drop them (a
        worker that does not answer them within ``SETTLE_SECONDS`` in all is stopped)."""
        settled = time.monotonic() + SETTLE_SECONDS
        while self._ahead:
            ahead = self._ahead.popleft()
            if ahead.worker not in self.workers.values():
                continue
            try:
                deadline = min(settled, time.monotonic() + ahead.limit)
                self._answer(ahead.worker, ahead.rid, deadline, ahead.limit, ahead.subject)
                ahead.worker.last_answer = time.monotonic()
                ahead.worker.last_cpu = process_cpu_seconds(ahead.worker.pid)
            except faults.Fault:
                pass

    def _ensure_worker(self, role: str, subject: str) -> _Worker:
        if role in self.workers:
            return self.workers[role]
        worker = self._spawn(role)
        # it imports the submission, stopping a module still running a while before this side gives up: that
        # module then does not import, said with its line to each question asked of it (as at home). Once one
        # worker's import ran to its limit, the others' get a short one: each worker imports the package's
        # __init__.py, and a loop there would cost the limit once per worker (ten times a submission)
        limit = IMPORT_AFTER_A_HANG if self.import_hung else IMPORT_TIMEOUT - 2 * GRACE_SECONDS
        started = time.monotonic()
        try:
            self._exchange(worker, {"op": "hello", "seconds": limit}, limit + 2 * GRACE_SECONDS, subject)
        except faults.Fault as fault:
            # dies or hangs while importing: every later call would too
            self.import_hung = self.import_hung or isinstance(fault, faults.TimeoutFault)
            detail = f"while importing {self._importing(role, subject)}: {fault.detail or fault.headline()}"
            self.dead[role] = faults.TimeoutFault(subject, fault.seconds, importing=True) \
                if isinstance(fault, faults.TimeoutFault) else faults.CrashFault(subject, detail)
            raise self.dead[role] from None
        self.import_hung = self.import_hung or time.monotonic() - started >= limit
        return worker

    def _importing(self, role: str, subject: str) -> str:
        """What a worker of ``role`` imports before any question: said where it died there, since the question's
        module need not be the one that ended it (an os._exit in flops.py read as roofline's crash)."""
        alone = role.partition(":")[2]
        if not alone:
            return (f"the submission (every module is imported first: code at the top level of any of them that "
                    f"exits or crashes ends the process, not only {subject.partition('.')[0]}.py's)")
        imported = imported_by(self.source, alone) if self.source is not None else []
        return f"the submission ({alone}.py" + (f" and what it imports: {', '.join(imported)})" if imported else ")")

    def _spawn(self, role: str) -> _Worker:
        # under the fork server's folder (removed with it, whatever happens to this process)
        root = Path(tempfile.mkdtemp(prefix="worker-", dir=self.server.workers))
        if role != "clean":
            shutil.copytree(self.source, root / "assignment")
            (root / "assignment" / "__init__.py").touch()  # the worker sees its copy read-only: made here
        (root / "scratch").mkdir()  # its scratch folder where it gets no private /tmp
        (root / "view").mkdir()  # where it builds the root it will see
        uid = None if self.uid is None else self.uid + ROLES[role if role in ROLES else role.partition(":")[0]]
        if uid is not None:
            for path in [root, *root.rglob("*")]:
                os.chown(path, uid, uid, follow_symlinks=False)
        root.chmod(0o700)
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        out_r, out_w = os.pipe()
        spec = {"root": str(root), "uid": uid, "limits": self.limits.to_dict(), "clean": role == "clean",
                "trusted": str(self.server.trusted) if role == "clean" else None,
                "alone": role.partition(":")[2] or None,
                # the submission's workers share one group's limits; a clean worker runs no submission code
                "submission": None if role == "clean" else self.key}
        try:
            answer = self.server.spawn(spec, theirs.fileno(), out_w)
        except BaseException:
            ours.close()
            os.close(out_r)
            shutil.rmtree(root, ignore_errors=True)
            raise
        finally:
            theirs.close()
            os.close(out_w)
        memory_cgroup = answer.get("memory_cgroup") if type(answer.get("memory_cgroup")) is str else None
        holder = answer.get("memory_holder") if type(answer.get("memory_holder")) is str else None
        applied = tuple(str(p) for p in answer.get("protections", ()))
        if memory_cgroup is None:  # the grader's own statement: it watches the tree
            applied += (f"memory {self.limits.memory_mb} MB for its whole process tree (watched by the grader)",)
        if role != "clean" and self.protections.mode == "none available":  # the first of the submission's
            self.protections = Protections(str(answer.get("mode", "")), applied,
                                           tuple(str(p) for p in answer.get("missing", ())))
        worker = _Worker(int(answer["pid"]), ours, root, out_r, self.limits, memory_cgroup, holder)
        worker.uid = uid
        self.workers[role] = worker
        return worker

    def _exchange(self, worker: _Worker, request: dict, seconds: float, subject: str) -> dict:
        deadline = time.monotonic() + seconds  # for sending the question and getting the answer, together
        rid = self._send(worker, request, seconds, subject)
        return self._answer(worker, rid, deadline, seconds, subject)

    def _send(self, worker: _Worker, request: dict, seconds: float, subject: str) -> int:
        rid = worker.next_id
        worker.next_id += 1
        request = {"id": rid, **request}
        try:
            # a worker that stops reading its channel (a thread holding the interpreter) must not hold the
            # grader: a large question is sent by the deadline too (sendall's timeout is a total since 3.5)
            worker.channel.settimeout(seconds)
            framing.send(worker.channel, wire.pack(request))
        except TimeoutError:
            self._kill(worker)
            raise faults.TimeoutFault(subject, round(seconds, 1)) from None
        except OSError:
            raise self._crashed(worker, subject) from None
        return rid

    def _answer(self, worker: _Worker, rid: int, deadline: float, seconds: float, subject: str) -> dict:
        """The outcome the worker sends for request ``rid``, by ``deadline``."""
        try:
            raw = self._receive(worker, deadline, subject, seconds)
            answer = wire.unpack(raw, answer=True)  # bounded: its author may be the code under test
        except (framing.ChannelClosed, OSError):
            raise self._crashed(worker, subject) from None
        except (wire.WireError, framing.MessageTooLarge) as exc:
            self._kill(worker)
            raise faults.CrashFault(subject, f"its answer was not well-formed ({exc})") from None
        if type(answer) is not dict or answer.get("id") != rid or type(answer.get("outcome")) is not dict:
            self._kill(worker)
            raise faults.CrashFault(subject, "its answer did not match the question")
        return answer["outcome"]

    def _receive(self, worker: _Worker, deadline: float, subject: str, seconds: float) -> bytes:
        """One framed message, by an absolute deadline: a worker that answers slowly, byte by byte,
        runs out of time as surely as one that never answers. Its memory is looked at every quarter
        second meanwhile (a walk of its process tree where there is no cgroup: not at every chunk)."""
        buffer = bytearray()
        needed = None
        looked = time.monotonic()
        while needed is None or len(buffer) < needed:
            left = deadline - time.monotonic()
            if left <= 0:
                self._kill(worker)
                raise faults.TimeoutFault(subject, round(seconds, 1))
            ready, _, _ = select.select([worker.channel], [], [], min(left, 0.25))
            if worker.flooded:
                self._kill(worker)
                raise faults.CrashFault(subject, self._flood_message())
            if not ready or time.monotonic() - looked > 0.25:
                looked = time.monotonic()
                self._check_memory(worker, subject)
            if not ready:
                continue
            chunk = worker.channel.recv(min(1 << 20, (needed or 4) - len(buffer)) if needed else 4 - len(buffer))
            if not chunk:
                raise framing.ChannelClosed("connection closed")
            buffer += chunk
            if needed is None and len(buffer) >= 4:
                needed = 4 + framing.length(bytes(buffer[:4]))
        if worker.memory_cgroup:  # cheap: did the kernel kill part of its tree for memory during the call?
            self._check_memory(worker, subject)
        return bytes(buffer[4:])

    def _check_memory(self, worker: _Worker, subject: str) -> None:
        if worker.over_memory():
            self._kill(worker)
            raise faults.CrashFault(subject, self._memory_message())

    def _flood_message(self) -> str:
        # counted over the process's life: the call that passed the limit need not have printed most of it
        return (f"its process printed more than {self.limits.flood_mb} MB of output in all, this call's and every "
                "earlier call's: print less (prints left in for debugging, a print in a loop)")

    def _memory_message(self) -> str:
        return f"it used more than {self.limits.memory_mb} MB of memory"

    def _crashed(self, worker: _Worker, subject: str) -> faults.Fault:
        # read before the fork server learns of its end: it then removes the worker's group
        out_of_memory = worker.memory_cgroup is not None and worker.over_memory()
        status = None
        try:
            status = self.server.status(worker.pid)
        except (OSError, RuntimeError):
            pass
        flooded = worker.flooded
        self._kill(worker)
        if flooded:
            return faults.CrashFault(subject, self._flood_message())
        if out_of_memory:
            return faults.CrashFault(subject, self._memory_message())
        return faults.CrashFault(subject, describe_status(status))

    def _kill(self, worker: _Worker) -> None:
        if worker.memory_watch is not None:
            worker.memory_watch.close()
        if worker.pid not in self._counted:  # (a worker may be stopped twice: once counted)
            self._counted.add(worker.pid)
            self.worker_cpu += process_cpu_seconds(worker.pid)
        try:
            self.server.kill(worker.pid)
            if worker.uid is not None:
                self.server.sweep(worker.uid)
        except (OSError, RuntimeError):
            pass
        if any(a.worker is worker for a in self._ahead):  # sent to a worker that is gone: their turns resend them
            self._ahead = collections.deque(a for a in self._ahead if a.worker is not worker)
        try:
            worker.channel.close()
        except OSError:
            pass
        worker.reader.join(timeout=2)
        worker.process.close()
        self.output += worker.output[: max(0, self.limits.output_kb * 1024 - len(self.output))]
        shutil.rmtree(worker.root, ignore_errors=True)
        for role, live in list(self.workers.items()):
            if live is worker:
                del self.workers[role]

    def session(self) -> Session:
        live = b"".join(bytes(w.output) for w in self.workers.values())
        output = printable((bytes(self.output) + live).decode("utf-8", errors="replace"))
        live_cpu = sum(process_cpu_seconds(w.pid) for w in self.workers.values() if w.pid not in self._counted)
        return Session(self.protections, output, round(self.worker_cpu + live_cpu, 3))

    def close(self) -> None:
        for worker in list(self.workers.values()):
            self._kill(worker)
        if self._own_server:
            self.server.close()


