"""Staff check: what a sandboxed worker can see and do, asked of real workers directly.

One fork server serves every test here. Each test puts a small submission in a
worker (``Sandboxed``) and calls its functions, which report what they found or
did; the grader's side is then checked from outside. Both ways of boxing a
worker in run where the machine allows: "root" (namespaces, then an unprivileged
user id of its own) and "user namespace" (what a grader that is not root gets;
here: root told not to drop privileges, the same code path).
"""

from __future__ import annotations

import glob
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from grader.harness import faults
from grader.harness.transport import Request
from grader.isolation import cgroups, sandbox, view
from grader.isolation.transport import ForkServerHandle, Sandbox, Sandboxed
from selftest.steal import steal_faked
from selftest.test_grader_attacks import staff_copies  # noqa: F401 - a fixture: copies of the staff files

ROOT = Path(__file__).resolve().parent.parent
UID_BASE = 63_000  # this module's worker ids (the attack batch uses 62_000)

PROBES = '''
import ctypes, gc, os, select, socket, threading, time


def listing(path):
    try:
        return sorted(os.listdir(path))
    except OSError as exc:
        return type(exc).__name__


def can_open(path):
    try:
        open(path, "rb").close()
        return "opened"
    except OSError as exc:
        return type(exc).__name__


def existing(paths):
    return [p for p in paths if os.path.lexists(p)]


def command_line():
    with open("/proc/self/cmdline", "rb") as handle:
        return handle.read().decode(errors="replace").split(chr(0))


def descriptors():
    import stat

    listed = [int(fd) for fd in os.listdir("/proc/self/fd")]
    kinds = {}
    for fd in listed:  # the listing's own descriptor is closed by now
        try:
            mode = os.fstat(fd).st_mode
        except OSError:
            continue
        kinds[fd] = "socket" if stat.S_ISSOCK(mode) else "pipe" if stat.S_ISFIFO(mode) else "device" \
            if stat.S_ISCHR(mode) else "other"
    return sorted(kinds.items())


def environment():
    return dict(os.environ)


def identity():
    return [os.getuid(), os.getcwd(), sorted(int(p) for p in os.listdir("/proc") if p.isdigit())]


def account():
    """What a checkpoint's metadata might ask: its user's entry, and every name the accounts files hold."""
    import grp
    import pwd

    me = pwd.getpwuid(os.getuid())
    return [me.pw_name, me.pw_dir, grp.getgrgid(os.getgid()).gr_name, sorted(p.pw_name for p in pwd.getpwall())]


def write_own_proc(names):
    """Write each of this process's /proc files named (``{tid}``: this thread's id), what each did."""
    done = []
    for name in names:
        path = "/proc/self/" + name.format(tid=threading.get_native_id())
        try:
            with open(path, "w") as handle:
                handle.write("5" if name.endswith("clear_refs") else "named-by-test")
            done.append("written")
        except OSError as exc:
            done.append(type(exc).__name__)
    return done


def signal_to(pid):
    try:
        os.kill(pid, 0)
        return "delivered"
    except OSError as exc:
        return type(exc).__name__


def network():
    try:
        socket.create_connection(("1.1.1.1", 53), timeout=1).close()
        return "connected"
    except OSError as exc:
        return type(exc).__name__


def write(path, megabytes):
    chunk, written = b"1" * 2**20, 0
    try:
        with open(path, "wb") as handle:
            for _ in range(megabytes):
                handle.write(chunk)
                written += 1
    except OSError as exc:
        return [written, type(exc).__name__]
    return [written, "ok"]


def leave_behind(tag):
    libc = ctypes.CDLL(None, use_errno=True)
    segment = libc.shmget(0, ctypes.c_size_t(1 << 20), 0o1000 | 0o666)
    for folder in ("/tmp", "/dev/shm"):
        with open(f"{folder}/{tag}", "wb") as handle:
            handle.write(b"1" * 2**20)
    return segment


def hold(children, threads, megabytes, seconds):
    def grab():
        block = bytearray(megabytes << 20)
        for i in range(0, len(block), 4096):
            block[i] = 1
        return block

    kids = []
    for _ in range(children):
        pid = os.fork()
        if pid == 0:
            try:
                block = grab()  # noqa: F841 - held while it sleeps
                time.sleep(60)
            finally:
                os._exit(0)
        kids.append(pid)
    held = []
    workers = [threading.Thread(target=lambda: held.append(grab())) for _ in range(threads)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    time.sleep(seconds)
    return "held"


def hold_interpreter(seconds):
    """Soon after answering, a thread takes the interpreter lock for good: the worker stops reading."""
    def hold():
        time.sleep(0.3)
        ctypes.PyDLL(None).sleep(seconds)

    threading.Thread(target=hold, daemon=True).start()
    return "holding"


def bomb():
    hoard = []
    while True:
        hoard.append(bytearray(1 << 28))


def compiled(x):
    import torch

    return float(torch.compile(lambda t: t * t + 1)(torch.tensor(float(x))))


def too_large():
    return "x" * (70 * 2**20)


def nap(seconds):
    time.sleep(seconds)
    return "rested"


def spin(rounds):
    started, total = time.perf_counter(), 0
    for i in range(rounds):
        total += i * i
    return time.perf_counter() - started


def writable(paths):
    """Those of ``paths`` this process could open for writing."""
    found = []
    for path in paths:
        try:
            os.close(os.open(path, os.O_WRONLY))
            found.append(path)
        except OSError:
            pass
    return found


def device_nodes(paths):
    """For each device node: which of its owner, mode and times could be changed
    (each changed to what it already is, so that nothing on the host moves if the view is wrong), and whether it
    took a write."""
    found = []
    for path in paths:
        info, changed = os.stat(path), []
        for name, change in (("chmod", lambda: os.chmod(path, info.st_mode & 0o7777)),
                             ("chown", lambda: os.chown(path, info.st_uid, info.st_gid)),
                             ("utime", lambda: os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns)))):
            try:
                change()
                changed.append(name)
            except OSError:
                pass
        with open(path, "wb", buffering=0) as handle:  # opened for writing: /dev/full then says it is full
            written = path != "/dev/full" and handle.write(b"x") == 1
        found.append([path, changed, written])
    return found


def outlive_the_grader():
    """When the channel to the grader closes, spin on instead of exiting (the worker's own loop reads it)."""
    import sys
    framing = sys.modules["grader.isolation.framing"]
    real = framing.recv

    def recv(sock):
        try:
            return real(sock)
        except OSError:
            while True:
                pass
    framing.recv = recv
    return True


def start_sleepers(n):
    for started in range(n):
        try:
            pid = os.fork()
        except OSError:
            return started
        if pid == 0:
            try:
                time.sleep(600)
            finally:
                os._exit(0)
    return n


def start_hogs(n):
    for started in range(n):
        try:
            pid = os.fork()
        except OSError:
            return started
        if pid == 0:
            try:
                os.setsid()
                while True:
                    pass
            finally:
                os._exit(0)
    return n


def start_thread_hogs(n):
    import numpy as np

    def busy():
        a = np.ones((256, 256))
        while True:
            a @ a  # (numpy lets go of the interpreter's lock: every thread busy at once)

    for _ in range(n):
        threading.Thread(target=busy, daemon=True).start()
    return n


def fill(folder):
    total = 0
    for n in range(64):
        written, how = write(f"{folder}/fill-{n}", 32)
        total += written
        if how != "ok":
            break
    return total


def trickle(seconds):
    import signal

    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    channel = next(o for o in gc.get_objects() if isinstance(o, socket.socket) and o.fileno() >= 0)

    def drip():
        try:
            channel.send((1 << 20).to_bytes(4, "big"))
            while True:
                channel.send(b" ")
                time.sleep(0.1)
        except OSError:
            pass

    threading.Thread(target=drip, daemon=True).start()
    time.sleep(seconds)
    return "done"


def interrupted(kind):
    class Halt(BaseException):
        pass

    raise KeyboardInterrupt("stop") if kind == "keyboard" else Halt("halt")


def stall():
    class Event(ctypes.Structure):
        _pack_ = 1
        _fields_ = [("events", ctypes.c_uint32), ("data", ctypes.c_uint64)]

    libc = ctypes.CDLL(None, use_errno=True)
    ready = os.eventfd(1)
    return [fd for fd in range(3, 1024)
            if libc.epoll_ctl(fd, 1, ready, ctypes.byref(Event(select.EPOLLIN, 3))) == 0]
'''


def _modes() -> list[str]:
    found = []
    if os.geteuid() == 0 and sandbox.available_mode(True) == sandbox.ROOT:
        found.append("root")
    if sandbox.available_mode(False) == sandbox.USER_NAMESPACE:
        found.append("user namespace")
    return found


MODES = _modes()
pytestmark = pytest.mark.skipif(not MODES, reason="this kernel gives no namespaces (see test_sandbox_modes.py)")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    handle = ForkServerHandle()
    yield handle
    handle.close()


@pytest.fixture(scope="module")
def package(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("probes") / "assignment"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "strides.py").write_text(textwrap.dedent(PROBES))
    return folder


@pytest.fixture(params=MODES)
def box(request, server, package):
    uid = UID_BASE if request.param == "root" else None
    opened = Sandboxed(package, Sandbox(server, uid, sandbox.Limits(memory_mb=512)))
    yield opened
    opened.close()


def call(box: Sandboxed, function: str, *args, timeout: float = 20.0, process: str = "main"):
    [reply] = box.exchange([Request("calls.call", (f"strides.{function}", *args), f"strides.{function}", timeout,
                                    process=process)])
    if isinstance(reply, BaseException):
        raise reply
    assert reply.outcome["status"] == "ok", reply.outcome
    return reply.outcome["value"]


# --------------------------------------------------------------------------- what it sees
def test_a_worker_sees_an_allow_list_and_nothing_else(box, server, staff_copies):
    top = set(call(box, "listing", "/"))
    assert top <= {"dev", "etc", "proc", "submission", "sys", "tmp"} | _top_levels(server.view)
    copies = [str(place / "reference" / "flops.py") for place in staff_copies]
    hidden = [str(ROOT / "reference"), str(ROOT / "tests"), str(ROOT / "grader"), *copies, str(server.private),
              str(server.trusted), str(server.workers), "/etc/shadow", "/etc/hosts", "/home", "/var", "/run", "/srv"]
    seen = call(box, "existing", hidden)
    assert seen == [], seen
    assert {call(box, "can_open", copy) for copy in copies} == {"FileNotFoundError"}
    assert call(box, "listing", "/submission/assignment") == ["__init__.py", "strides.py"]
    assert call(box, "listing", "/etc") == ["group", "ld.so.cache", "passwd"]  # its own accounts, written for it
    assert set(call(box, "listing", "/dev")) >= {"null", "zero", "urandom", "shm"}
    assert call(box, "write", "/submission/assignment/strides.py", 1)[1] == "OSError"  # read-only
    assert call(box, "write", "/usr/lib/planted.so", 1)[1] == "OSError"


def test_a_worker_s_command_line_names_nothing_of_the_staff_repository(box):
    """A worker is forked, not exec'd: its /proc/self/cmdline is the fork server's. The staff repository's
    path reaches the fork server on stdin, so that no worker reads where the staff files are. (The
    interpreter's own path comes first: a virtual environment kept in the checkout is seen anyway.)"""
    interpreter, *words = call(box, "command_line")
    assert any("forkserver" in word for word in words)  # it is the fork server's command line
    assert not any(str(ROOT) in word for word in words), words


def _top_levels(paths: list[str]) -> set[str]:
    return {Path(p).parts[1] for p in paths if len(Path(p).parts) > 1}


def test_a_worker_sees_its_own_processes_and_no_network(box):
    uid, cwd, pids = call(box, "identity")
    assert pids == [1] and cwd == "/tmp"
    assert uid == (UID_BASE if box.uid is not None else 0)
    assert call(box, "network") in ("OSError", "ConnectionRefusedError", "PermissionError")  # the filter: no AF_INET
    assert box.protections.mode in ("root", "user namespace")
    assert any("allow-list" in p for p in box.protections.applied)
    assert box.protections.missing == () or box.protections.mode == "user namespace"


def test_no_worker_can_write_the_kernel_s_settings(box):
    """As root in a user namespace that maps to host root (a root grader told --same-user), a worker would
    pass the owner's check on /proc/sys with no capability: kernel.core_pattern runs a program as root."""
    settings = ["/proc/sys/kernel/core_pattern", "/proc/sys/kernel/printk_ratelimit", "/proc/sys/vm/drop_caches",
                "/proc/sysrq-trigger"]
    assert call(box, "writable", settings) == []


def test_a_worker_s_threads_name_themselves_but_it_cannot_reset_its_own_peak_memory(box):
    """CUDA's driver (570 and later) names its threads through /proc/self/task/<tid>/comm and fails to start
    ("Error 304") where it cannot: a worker with a user id of its own gets a /proc it may write there. Its
    peak resident memory, which the door resets and reads from outside, stays out of its reach: its
    per-process files belong to root (it is not dumpable), or its /proc is read-only."""
    peak = call(box, "write_own_proc", ["clear_refs", "task/{tid}/clear_refs"])
    assert "written" not in peak, peak
    if box.uid is not None:
        assert call(box, "write_own_proc", ["task/{tid}/comm"]) == ["written"]


def test_a_worker_s_user_has_an_account_and_the_host_s_accounts_are_not_shown(box):
    """``pwd.getpwuid(os.getuid())`` in a correct checkpoint raised ``KeyError`` in a worker whose user id the
    host never named; its own /etc/passwd names it (and root), and no account of the host's."""
    name = "student" if box.uid is not None else "root"
    assert call(box, "account") == [name, "/tmp", name, sorted({"root", name})]


def test_no_worker_can_change_the_host_s_device_nodes(box):
    """The devices are the host's own nodes, bound in: as root in a user namespace that maps to host root, a
    worker passed the owner's check on them, and chmod 000 /dev/null would break the machine until a reboot.
    Bound read-only, they still take writes."""
    nodes = ["/dev/null", "/dev/full", "/dev/zero", "/dev/urandom"]
    assert call(box, "device_nodes", nodes) == [[node, [], node != "/dev/full"] for node in nodes]


def test_no_student_worker_sees_the_judges(box, server):
    judges = server.trusted / "grader" / "judges"
    assert judges.is_dir() and not any(p.startswith(str(server.trusted)) for p in server.view)
    # nor another user of the machine: the judges' copy is at a path no one can list or guess, and one who
    # learns it (a clean worker's mountinfo names it) cannot open it
    assert server.workdir.stat().st_mode & 0o777 == 0o711 and len(server.trusted.name) >= 32
    assert server.trusted.stat().st_mode & 0o777 == 0o700
    assert call(box, "existing", [str(judges)]) == []
    assert call(box, "existing", [str(judges)], process="separate") == []


def test_a_worker_inherits_no_descriptor_of_the_grader(box):
    fds = call(box, "descriptors")  # stdin (/dev/null), output twice, its channel: nothing of the fork server's
    assert [kind for _, kind in fds] == ["device", "pipe", "pipe", "socket"] and fds[2][0] == 2, fds
    assert call(box, "stall") == []  # no epoll set of the fork server's to join


def test_the_cuda_environment_reaches_the_worker(monkeypatch, package):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")
    monkeypatch.setenv("PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True")
    monkeypatch.setenv("GRADER_SECRET", "seed")
    worker = Sandboxed(package, Sandbox(None, None))  # its own fork server, started with this environment
    try:
        env = call(worker, "environment")
    finally:
        worker.close()
    assert env["CUDA_VISIBLE_DEVICES"] == "1" and env["PYTORCH_CUDA_ALLOC_CONF"] == "expandable_segments:True"
    assert "GRADER_SECRET" not in env and env["TMPDIR"] == "/tmp"
    assert env["USER"] == env["LOGNAME"] == "student"  # getpass.getuser() has a name to give


@pytest.mark.skipif("root" not in MODES, reason="workers keep the host's PID namespace only when graded as root")
def test_where_cuda_refuses_a_pid_namespace_a_worker_sees_and_signals_only_its_own_processes(monkeypatch, package):
    """On a machine where CUDA does not start in a new PID namespace (``grader.harness.devices``), a root
    grader's workers keep the host's: their /proc hides every other user's processes, and their own user id
    keeps their signals from any process but their own."""
    monkeypatch.setenv("ASSIGNMENT_CUDA", "1")
    monkeypatch.setenv("ASSIGNMENT_CUDA_PID_NAMESPACE", "0")
    uid = UID_BASE + 7
    worker = Sandboxed(package, Sandbox(None, uid))  # its own fork server, started with this environment
    try:
        seen_uid, _, pids = call(worker, "identity")
        own = worker.workers["main"].pid  # as the host sees it: the same number inside
        signals = [call(worker, "signal_to", pid) for pid in (1, os.getpid(), own)]
        applied = worker.protections.applied
    finally:
        worker.close()
    assert seen_uid == uid and own in pids and 1 not in pids and os.getpid() not in pids, pids
    assert signals == ["PermissionError", "PermissionError", "delivered"]
    assert any("no other user's processes" in p for p in applied) and "own process list" not in applied


# --------------------------------------------------------------------------- what it leaves
def test_scratch_and_ipc_are_private_and_die_with_the_worker(box):
    before = _host_segments()
    tag = f"left-behind-{os.getpid()}"
    assert call(box, "leave_behind", tag) >= 0
    assert tag in call(box, "listing", "/tmp")
    assert not Path(f"/dev/shm/{tag}").exists() and _host_segments() == before  # never on the host
    assert call(box, "fill", "/tmp") <= sandbox.Limits().scratch_mb  # the scratch space is size-limited
    assert call(box, "fill", "/dev/shm") <= sandbox.Limits().shm_mb
    box._kill(box.workers["main"])  # a replaced worker ...
    assert tag not in call(box, "listing", "/tmp")  # ... and its successor starts empty
    assert call(box, "listing", "/dev/shm") == []


def _host_segments() -> list[str]:
    try:
        return Path("/proc/sysvipc/shm").read_text().splitlines()[1:]
    except OSError:
        return []


# --------------------------------------------------------------------------- limits
def test_memory_is_limited_for_all_its_threads_and_it_starts_no_process(box):
    """Six threads, each far under the limit, together over it; a child process is refused (seccomp), so the
    worker's own memory, reads and CPU time, which the door watches from outside, are all it uses."""
    with pytest.raises(faults.CrashFault) as caught:
        call(box, "hold", 0, 6, 220, 1.5, timeout=30.0)
    assert "more than 512 MB of memory" in str(caught.value)
    assert call(box, "spin", 10) >= 0  # a fresh worker answers the next call
    assert call(box, "start_hogs", 3) == 0


def test_an_interrupt_or_other_base_exception_the_code_raises_is_said_as_raised(box):
    """In a worker no one presses Ctrl-C: a KeyboardInterrupt (or another BaseException) is the code's own, an
    exception it raised on that line, not a worker that "exited with status 70" or "failed to start"; and the
    worker goes on answering."""
    for kind, exc_type in (("keyboard", "KeyboardInterrupt"), ("other", "Halt")):
        [reply] = box.exchange([Request("calls.call", ("strides.interrupted", kind), "strides.interrupted", 20.0)])
        assert not isinstance(reply, BaseException), reply
        assert reply.outcome["status"] == "raised" and reply.outcome["exc_type"] == exc_type, reply.outcome
    assert call(box, "nap", 0.0) == "rested"


def test_an_answer_that_cannot_be_sent_back_is_said_as_that_not_as_an_exception_raised(box):
    """An answer past the channel's limit once read "raised ValueError: the returned value is too large", an
    exception the function never raised: it is said as an answer not sent back; and the worker goes on."""
    [reply] = box.exchange([Request("calls.call", ("strides.too_large",), "strides.too_large", 20.0)])
    assert not isinstance(reply, BaseException), reply
    assert reply.outcome["status"] == "unsent" and "larger than 64 MB" in reply.outcome["message"], reply.outcome
    assert call(box, "nap", 0.0) == "rested"


# (a loop in C: no signal handler runs until sum returns)
@pytest.mark.parametrize("hang", ["while True:\n    pass\n", "sum(range(10**15))\n"])
def test_a_package_that_hangs_when_imported_costs_the_import_limit_once(monkeypatch, server, tmp_path, hang):
    """Each worker imports the package's __init__.py: one that loops there once cost the import limit per worker,
    ten times a submission (five minutes of a batch's slot). After one worker's import ran to its limit, the others
    get a short one; a loop the worker's own alarm stops is said as a module that does not import, with its line,
    and a hang in C that no alarm reaches as a timeout while importing, not in the function asked."""
    from grader.isolation import transport

    monkeypatch.setattr(transport, "IMPORT_TIMEOUT", 6.0)  # a worker's own limit of 2 s, then 0.5 s
    monkeypatch.setattr(transport, "IMPORT_AFTER_A_HANG", 0.5)
    folder = tmp_path / "hangs" / "assignment"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text(hang)
    (folder / "strides.py").write_text(textwrap.dedent(PROBES))
    box = Sandboxed(folder, Sandbox(server, UID_BASE if "root" in MODES else None, sandbox.Limits(memory_mb=512)))
    try:
        started, said = time.monotonic(), []
        for process in ("main", "separate", "main"):
            [reply] = box.exchange([Request("calls.call", ("strides.nap", 0.0), "strides.nap", 20.0,
                                            process=process)])
            said.append(reply.headline() if isinstance(reply, faults.Fault) else reply.outcome)
        took = time.monotonic() - started
    finally:
        box.close()
    if hang.startswith("while"):  # stopped by the worker's alarm: the module does not import, at its line
        assert all(type(s) is dict and s["status"] == "import_error" and "still running when the time limit ran out"
                   in s["message"] and "(assignment/__init__.py, line" in s["message"] for s in said), said
    else:
        assert all(type(s) is str and "importing the submission, before anything could be asked" in s
                   for s in said), said
    assert took < 2 + 4 + 0.5 + 4 + 3, f"{took:.1f} s: the second worker should have had the short limit"


def test_torch_compile_runs_the_function_as_written(box):
    """A worker has no C++ compiler, a noexec /tmp and no processes of its own: torch.compile there runs the
    function as written, with its answers, where a student's machine compiles it (not an error in grading
    alone)."""
    assert call(box, "compiled", 3, timeout=60.0) == 10.0


def test_on_a_gpu_machine_there_is_no_address_space_limit(server, package):
    """CUDA reserves far more address space than it uses: with a GPU (``watch_memory``) no RLIMIT_AS;
    the worker's cgroup, or the grader's watch over its tree, limits its memory instead."""
    worker = Sandboxed(package, Sandbox(server, None, sandbox.Limits(memory_mb=512, watch_memory=True)))
    try:
        with pytest.raises(faults.CrashFault) as caught:
            call(worker, "bomb")
        assert "more than 512 MB of memory" in str(caught.value)
        assert not any(p == "limit: memory" for p in worker.protections.applied), worker.protections
    finally:
        worker.close()


def test_a_call_s_own_waits_are_seen_from_outside_and_compute_waits_for_nothing(box):
    """``Observe.waits``: the worker's answering thread's wall time less its CPU time and its wait for a CPU,
    as the kernel counts them, read from the grading side while the worker waits for its next question."""
    from grader.harness.transport import Observe

    def observed(function, *args):
        [reply] = box.exchange([Request("calls.call", (f"strides.{function}", *args), f"strides.{function}", 20.0,
                                        observe=Observe(waits=True))])
        assert not isinstance(reply, BaseException) and reply.outcome["status"] == "ok", reply
        return reply

    slept = observed("nap", 0.2)
    assert 0.15 <= slept.waited <= slept.wall_seconds
    spun = observed("spin", 3_000_000)
    assert spun.waited is not None and spun.waited < 0.1, (spun.waited, spun.wall_seconds)


def test_a_worker_s_cpu_taken_by_its_host_is_not_its_own_wait(box, monkeypatch):
    """``Observe.waits`` with steal time: what the host took from the CPUs the worker and the grading thread ran
    on (faked in /proc/stat as all of the time that passes, over a sleep that stands for it) is the machine's."""
    from grader.harness.transport import Observe

    steal_faked(monkeypatch, "all")
    [reply] = box.exchange([Request("calls.call", ("strides.nap", 0.2), "strides.nap", 20.0,
                                    observe=Observe(waits=True))])
    assert not isinstance(reply, BaseException) and reply.outcome["status"] == "ok", reply
    assert reply.waited is not None and reply.waited < 0.05, (reply.waited, reply.wall_seconds)


def test_a_call_s_time_limit_is_absolute(box):
    started = time.monotonic()
    with pytest.raises(faults.TimeoutFault):
        call(box, "trickle", 60, timeout=1.0)  # answers a byte every 0.1 s, ignoring its alarm
    assert time.monotonic() - started < 1.0 * 1.1 + 2.0 + 1.5
    call(box, "hold_interpreter", 60)
    time.sleep(0.5)
    started = time.monotonic()
    with pytest.raises(faults.TimeoutFault):  # a question too large for the channel's buffer, never read
        call(box, "existing", ["x" * 40] * 100_000, timeout=1.0)
    assert time.monotonic() - started < 1.0 * 1.1 + 2.0 + 1.5


def test_an_exchange_ended_early_drops_what_it_sent_ahead_within_seconds(box):
    """A test's budget spent ends its exchange (``on_reply`` says so): the questions already sent ahead are
    dropped within ``SETTLE_SECONDS`` in all, the worker stopped if need be, not answered at up to their limit
    each; the next question is answered as usual (by a fresh worker)."""
    from grader.isolation.transport import SETTLE_SECONDS

    naps = [Request("calls.call", ("strides.nap", 1.0), "strides.nap", 20.0) for _ in range(10)]
    assert call(box, "nap", 0.0) == "rested"  # the worker started and warm, outside what is measured
    started = time.monotonic()
    replies = box.exchange(naps, lambda index, reply: True)
    took = time.monotonic() - started
    assert len(replies) == 1 and replies[0].outcome["value"] == "rested", replies
    assert took < 1.0 + SETTLE_SECONDS + 1.5, f"ended after the first of ten 1 s calls, the exchange took {took:.1f} s"
    assert call(box, "nap", 0.0) == "rested"


@pytest.mark.skipif(not cgroups.available(), reason="no cgroup here")
def test_cpu_is_shared_by_worker_not_by_process(server, package):
    honest = Sandboxed(package, Sandbox(server, None))
    hog = Sandboxed(package, Sandbox(server, None))
    try:
        call(honest, "spin", 10)  # warm
        alone = min(call(honest, "spin", 4_000_000) for _ in range(2))
        assert call(hog, "start_thread_hogs", 30) == 30
        time.sleep(0.5)
        crowded = min(call(honest, "spin", 4_000_000) for _ in range(2))
    finally:
        hog.close()
        honest.close()
    # 30 busy threads of one worker (its processes are refused) get one CPU between them, not the machine: without the
    # group the honest worker gets about 1/15 of this 2-core machine (15x slower); with it, a share of one
    # core, slower by up to 3x when the suite's other process is busy on the other core (seen in CI)
    assert crowded < 5 * alone + 0.1, (alone, crowded)


@pytest.mark.skipif(not cgroups.available(), reason="no cgroup here")
def test_a_submission_s_workers_share_one_group_s_limits(server, package):
    """A submission has five or more workers (main, separate, one per module read by its source): they
    sit in one group with one worker's limits, so more workers is not more memory, CPU or processes."""
    one, other = Sandboxed(package, Sandbox(server, None)), Sandboxed(package, Sandbox(server, None))
    try:
        for box, process in ((one, "main"), (one, "separate"), (other, "main")):
            call(box, "spin", 10, process=process)
        groups = [one.workers["main"].memory_cgroup, one.workers["separate:strides"].memory_cgroup,
                  other.workers["main"].memory_cgroup]
        holders = [os.path.dirname(g) for g in groups]
        assert holders[0] == holders[1] != holders[2], groups
        limit = "memory.limit_in_bytes" if os.path.exists(os.path.join(groups[0], "memory.limit_in_bytes")) \
            else "memory.max"
        assert Path(holders[0], limit).read_text() == Path(groups[0], limit).read_text()
        for pid in (one.workers["main"].pid, one.workers["separate:strides"].pid):
            cpu = next(line.split(":", 2)[2] for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines()
                       if "cpu" in line.split(":")[1].split(",") or line.startswith("0::"))
            assert os.path.basename(os.path.dirname(cpu)) == os.path.basename(holders[0]), cpu
    finally:
        one.close()
        other.close()
    assert not os.path.exists(holders[0])  # gone with the submission's last worker


def test_processes_are_limited_per_worker(box):
    assert call(box, "start_sleepers", 100, timeout=30.0) < sandbox.Limits().processes
    assert len(call(box, "identity")[2]) <= sandbox.Limits().processes


# --------------------------------------------------------------------------- the allow-list itself
def test_allowed_paths_never_hold_the_staff_repository():
    """Nothing that holds the repository, nothing inside it but installed packages (a venv kept in it)."""
    for repo in (ROOT, Path("/usr")):  # /usr: as if the checkout held the system's libraries
        for path in view.allowed_paths(repo):
            real, repo_real = os.path.realpath(path), os.path.realpath(repo)
            assert not (repo_real + "/").startswith(real.rstrip("/") + "/"), (repo, path)
            assert not real.startswith(repo_real + "/") or "site-packages" in real, (repo, path)
    assert "/" not in view.allowed_paths(None)


ORPHAN = """
import json, sys, time
from pathlib import Path
from grader.isolation.transport import ForkServerHandle, Sandbox, Sandboxed
from selftest.test_grader_attacks import staff_copies  # noqa: F401 - a fixture: copies of the staff files
from grader.harness.transport import Request
server = ForkServerHandle()
box = Sandboxed(Path(sys.argv[1]), Sandbox(server, None))
box.exchange([Request("calls.call", ("strides.start_sleepers", 3), "x", 10.0)])
print(json.dumps({"server": server.pid, "worker": box.workers["main"].pid, "workdir": str(server.workdir),
                  "cgroups": server.cgroups}), flush=True)
time.sleep(600)
"""


def test_a_killed_grader_takes_its_fork_server_and_workers_along(package):
    grader = subprocess.Popen([sys.executable, "-c", ORPHAN, str(package)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        made = json.loads(grader.stdout.readline())
    finally:
        grader.kill()  # SIGKILL: no cleanup of its own
        grader.wait()
    deadline = time.monotonic() + 10
    while (_alive(made["server"]) or Path(made["workdir"]).exists()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(made["server"]) and not _alive(made["worker"])
    assert not Path(made["workdir"]).exists()
    assert [g for prefix in made["cgroups"] for g in glob.glob(prefix + "-*")] == []


def _alive(pid: int) -> bool:
    try:
        return "\nState:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False


def test_a_killed_grading_process_takes_its_workers_along(server, package):
    """The batch kills a grading process at the submission's time limit, and it never closes its workers
    itself. The fork server sees its connection close and kills every worker that connection asked for,
    even one that would not exit by itself: none lives on into the next submission's turn in its slot."""
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # a grading process: its own connection to the shared fork server
        try:
            os.close(read)
            box = Sandboxed(package, Sandbox(server, None))
            call(box, "outlive_the_grader")
            os.write(write, str(box.workers["main"].pid).encode())
            time.sleep(600)
        finally:
            os._exit(0)
    os.close(write)
    worker = int(os.read(read, 64) or b"0")
    os.close(read)
    os.kill(child, signal.SIGKILL)
    os.waitpid(child, 0)
    deadline = time.monotonic() + 10
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert worker > 1 and not _alive(worker)


def test_closing_the_fork_server_leaves_nothing(server, package):
    worker = Sandboxed(package, Sandbox(server, UID_BASE + 1 if "root" in MODES else None))
    call(worker, "start_hogs", 3)
    pid, groups, workdir = worker.workers["main"].pid, list(server.cgroups), server.workdir
    assert bool([g for prefix in groups for g in glob.glob(prefix + "-*")]) == bool(cgroups.available())
    server.close()
    assert not _alive(pid)
    assert not workdir.exists()
    assert [g for prefix in groups for g in glob.glob(prefix + "-*")] == []


# --------------------------------------------------------------------------- the seccomp filter
SECCOMP_CHILD = """
import ctypes, json, os, platform, subprocess, sys, threading
from grader.isolation import sandbox, seccomp
said = {"install": seccomp.install()}
libc = sandbox.libc()
_, numbers = seccomp.ARCHES[platform.machine()]
for name in seccomp.REFUSED:  # arguments that fail at once anyway: only the errno tells the filter from the call
    if name in numbers:
        ctypes.set_errno(0)
        said[name] = (libc.syscall(ctypes.c_long(numbers[name]), ctypes.c_long(-1), 0, 0, 0, 0), ctypes.get_errno())
said["clone new user"] = (libc.unshare(0x10000000), ctypes.get_errno())
ctypes.set_errno(0)
said["dumpable again"] = (libc.prctl(seccomp.PR_SET_DUMPABLE, 1, 0, 0, 0), ctypes.get_errno())
said["PR_GET_DUMPABLE"] = libc.prctl(3, 0, 0, 0, 0) >= 0  # other prctl commands still work
said["PR_SET_NAME"] = libc.prctl(15, b"worker", 0, 0, 0) == 0
import fcntl, socket, struct
shared = os.open(sys.executable, os.O_RDONLY)  # a file every worker sees, read-only
for command, value in seccomp.F_LOCKS.items():  # a real descriptor: only the filter refuses these
    ctypes.set_errno(0)
    said[command] = (libc.fcntl(shared, value, ctypes.create_string_buffer(struct.pack("hhqqi", 0, 0, 0, 1, 0), 64)),
                     ctypes.get_errno())
said["F_GETFD"] = fcntl.fcntl(shared, fcntl.F_GETFD) >= 0  # the plain commands still work
for family in (socket.AF_INET, socket.AF_INET6, socket.AF_NETLINK, 40):  # 40: AF_VSOCK
    ctypes.set_errno(0)
    said[f"socket {family}"] = (libc.socket(family, socket.SOCK_STREAM if family != socket.AF_NETLINK
                                            else socket.SOCK_RAW, 0), ctypes.get_errno())
said["socketpair"] = len(socket.socketpair())  # AF_UNIX: what a worker's own pipes and children use
for name, start in (("fork", os.fork), ("subprocess", lambda: subprocess.run([sys.executable, "-c", "0"]))):
    try:  # a worker starts no process (what the door watches from outside is the worker's alone)
        if start() == 0:
            os._exit(0)
        said[name] = "started"
    except OSError as error:
        said[name] = error.errno
box = []
thread = threading.Thread(target=box.append, args=(1,))
thread.start(); thread.join()
said["thread"] = box
import torch
torch.set_num_threads(2)
said["torch"] = float(torch.ones(64, 64).matmul(torch.ones(64, 64)).sum())
print(json.dumps(said))
"""


@pytest.mark.skipif(os.uname().machine not in ("x86_64", "aarch64"), reason="a filter is built for x86-64 and AArch64")
def test_the_seccomp_filter_refuses_what_it_lists_and_nothing_a_submission_needs():
    run = subprocess.run([sys.executable, "-c", SECCOMP_CHILD], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    said = json.loads(run.stdout.strip().splitlines()[-1])
    assert said.pop("install") is None
    assert said.pop("fork") == said.pop("subprocess") == 1 and said.pop("thread") == [1]
    assert said.pop("F_GETFD") is True and said.pop("socketpair") == 2
    assert said.pop("PR_GET_DUMPABLE") is True and said.pop("PR_SET_NAME") is True
    assert said.pop("torch") == 64.0 ** 3
    assert said == {name: [-1, 1] for name in said}, said  # every one EPERM


def test_the_grader_signals_a_worker_through_a_pidfd_never_by_its_number(monkeypatch):
    """The grading process signals workers as root (held stopped for Part 5's stalls, killed for an output
    flood), sometimes after the worker ended: by number, a signal could reach whatever process took the
    number since. Through the pidfd opened while it ran, a signal after its end reaches nothing."""
    from grader.isolation.transport import ProcessHandle, Staller

    child = subprocess.Popen(["sleep", "30"])
    handle = ProcessHandle(child.pid)
    if handle.fd is None:
        pytest.skip("no pidfds in this kernel: workers are signalled by number")
    monkeypatch.setattr(os, "kill", lambda *a: pytest.fail(f"signalled by number: os.kill{a}"))
    staller = Staller(handle)
    time.sleep(0.1)
    assert staller.stop() > 0  # held stopped, then let go
    handle.send(signal.SIGKILL)
    assert child.wait(timeout=10) == -signal.SIGKILL
    with pytest.raises(ProcessLookupError):
        handle.send(signal.SIGKILL)  # reaped: its number is free for another process
    handle.close()
    with pytest.raises(ProcessLookupError):
        handle.send(signal.SIGKILL)  # closed: a thread's late signal goes nowhere
