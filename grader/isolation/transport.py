"""The trusted side of isolation: a transport to sandboxed worker processes.

``Sandboxed`` keeps up to three warm workers per submission, one per process
role of ``grader.harness.transport``: ``main`` (the submission), ``separate``
(the submission again, never told what ``main`` was asked) and ``clean`` (no
submission, the harness's own measurements). A worker is reused across calls
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

import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from grader.harness import faults, wire
from grader.harness.transport import Protections, Reply, Request, Session, mappings, process_cpu_seconds
from grader.isolation import cgroups, framing
from grader.isolation.sandbox import Limits, fresh_uid_base

HERE = Path(__file__).resolve().parent
GRADER_DIR = HERE.parent
IMPORT_TIMEOUT = 30.0
WORKER_FILES = ("__init__.py", "framing.py", "sandbox.py", "view.py", "cgroups.py", "worker.py", "forkserver.py")
STAFF_REPOSITORY = GRADER_DIR.parent  # never shown to a worker, nor any folder that holds it


def stage_harness(dest: Path, *, judges: bool = False) -> Path:
    """Copy what a worker may see of the grader: the public harness and the worker code; for
    a clean worker, the judges too (never for one that runs a submission)."""
    pkg = dest / "grader"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(GRADER_DIR / "harness", pkg / "harness", ignore=ignore)
    if judges:
        shutil.copytree(GRADER_DIR / "judges", pkg / "judges", ignore=ignore)
    (pkg / "isolation").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    for name in WORKER_FILES:
        shutil.copyfile(HERE / name, pkg / "isolation" / name)
    for path in [dest, *dest.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return dest


class ForkServerHandle:
    """Starts the fork server (a fresh interpreter) and talks to it."""

    def __init__(self, workdir: Path | None = None) -> None:
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="grader-fs-"))
        self.workdir.chmod(0o711)
        self.private = self.workdir / "private"  # the socket's folder: the grader's alone
        self.process: subprocess.Popen | None = None
        self.cgroups: list[str] = []  # what names the fork server's control groups (prefixes), for close()
        self._conn: socket.socket | None = None
        self._conn_pid = -1
        try:
            self._start()
        except BaseException:
            self.close()
            raise

    def _start(self) -> None:
        harness = stage_harness(self.workdir / "harness")
        self.trusted = stage_harness(self.workdir / "trusted", judges=True)  # clean workers' path
        self.workers = self.workdir / "workers"  # every worker's folder: gone with the fork server
        self.workers.mkdir(mode=0o711)
        if len(os.fsencode(self.private)) > 80:  # a socket's path has at most 107 bytes: a long $TMPDIR
            self.private = Path(tempfile.mkdtemp(prefix="grader-fs-", dir="/tmp"))
        else:
            self.private.mkdir(mode=0o700)
        self.path = str(self.private / "forkserver.sock")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GRADER_", "PYTEST", "HYPOTHESIS"))}
        env["OMP_NUM_THREADS"] = "1"
        env["PYTORCH_NVML_BASED_CUDA_CHECK"] = "1"  # the fork server must never initialise CUDA
        env["TORCHINDUCTOR_CACHE_DIR"] = str(self.workdir / "torch")  # not $TMPDIR/torchinductor_<user>
        # -I: no PYTHONPATH, no user site, no working folder on sys.path; the bootstrap
        # puts the harness copy (and nothing of the staff repository) on it
        bootstrap = "import sys; sys.path.insert(0, sys.argv[1]); from grader.isolation.forkserver import main; main()"
        self.process = subprocess.Popen(
            [sys.executable, "-I", "-c", bootstrap, str(harness), self.path, str(STAFF_REPOSITORY)],
            cwd=str(harness), stdout=subprocess.PIPE, env=env, start_new_session=True,
        )
        line = self.process.stdout.readline() if self.process.stdout else b""
        if not line:
            raise RuntimeError("the fork server did not start")
        info = json.loads(line)
        self.pid = int(info["pid"])
        self.missing = list(info.get("missing", []))
        self.cgroups = [str(p) for p in info.get("cgroups", [])]
        self.view = [str(p) for p in info.get("view", [])]  # the paths every worker sees

    # -- requests ------------------------------------------------------------------
    def _connection(self) -> socket.socket:
        if self._conn is None or self._conn_pid != os.getpid():  # a forked grading child needs its own
            conn = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            conn.connect(self.path)
            self._conn, self._conn_pid = conn, os.getpid()
        return self._conn

    def request(self, payload: dict, fds: list[int] = (), timeout: float = 60.0) -> dict:
        conn = self._connection()
        data = json.dumps(payload).encode()
        if fds:
            socket.send_fds(conn, [data], list(fds))
        else:
            conn.send(data)
        conn.settimeout(timeout)
        reply = conn.recv(65536)
        if not reply:
            raise RuntimeError("the fork server closed the connection")
        answer = json.loads(reply)
        if "error" in answer:
            raise RuntimeError(f"fork server: {answer['error']}")
        return answer

    def spawn(self, spec: dict, channel_fd: int, output_fd: int) -> dict:
        """Fork a worker; the fork server's answer: its pid, and the protections it set up."""
        answer = self.request({"op": "spawn", "spec": spec}, [channel_fd, output_fd])
        if int(answer.get("pid", 0)) <= 1:
            raise RuntimeError(f"the fork server reported an impossible worker pid {answer.get('pid')}")
        return answer

    def status(self, pid: int) -> int | None:
        return self.request({"op": "status", "pid": pid}).get("status")

    def kill(self, pid: int) -> None:
        self.request({"op": "kill", "pid": pid})

    def sweep(self, uid: int) -> None:
        self.request({"op": "sweep", "uid": uid})

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None and self._conn_pid in (-1, os.getpid()):
            try:  # first every worker and whatever they left running, wherever it went
                conn = self._connection()
                conn.settimeout(10)
                conn.send(json.dumps({"op": "shutdown"}).encode())
                conn.recv(16)
            except OSError:
                pass
        if self._conn is not None and self._conn_pid == os.getpid():
            self._conn.close()
            self._conn = None
        if self.process is not None and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait()
        for prefix in self.cgroups:  # what a fork server killed before it could clean up left behind
            cgroups.remove_all(prefix)
        shutil.rmtree(self.private, ignore_errors=True)
        shutil.rmtree(self.workdir, ignore_errors=True)


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
                 memory_cgroup: str | None = None) -> None:
        self.pid, self.channel, self.root = pid, channel, root
        self.memory_cgroup = memory_cgroup  # the kernel limits its tree; else the grader watches it
        self.memory_watch = cgroups.MemoryWatch(memory_cgroup) if memory_cgroup else None
        self.output = bytearray()
        self.output_total = 0
        self.flooded = False
        self.limits = limits
        self._fd = output_fd
        self.reader = threading.Thread(target=self._drain, daemon=True)
        self.reader.start()
        self.next_id = 1
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
                    os.kill(self.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        try:
            os.close(self._fd)
        except OSError:
            pass


ROLES = {"main": 0, "separate": 1, "clean": 2}  # each role's worker runs as its own user: uid + this
UIDS_PER_SLOT = 4


@dataclass
class Sandbox:
    """What a grading process's transports share: the fork server, this slot's users, the limits."""

    server: ForkServerHandle | None = None
    uid: int | None = None  # the slot's first user id (as root); its workers run as uid + ROLES[role]
    limits: Limits = field(default_factory=Limits)


class Sandboxed:
    """A transport whose other side is sandboxed worker processes, one per process role."""

    label = "sandboxed worker"

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
        self.dead: dict[str, faults.Fault] = {}  # a role whose worker cannot even start
        self.protections = Protections("none available")
        self.import_errors: dict[str, str] = {}
        self.output = bytearray()

    # -- the transport ---------------------------------------------------------------------
    def exchange(self, requests: list[Request]) -> list[Reply | BaseException]:
        replies: list[Reply | BaseException] = []
        for request in requests:
            try:
                replies.append(self._one(request))
            except faults.Fault as fault:
                replies.append(fault)
        return replies

    def _one(self, request: Request) -> Reply:
        role = request.process if self.source is not None else "clean"
        if role in self.dead:
            dead = self.dead[role]
            raise faults.TimeoutFault(request.subject, dead.seconds) if isinstance(dead, faults.TimeoutFault) \
                else faults.CrashFault(request.subject, dead.detail)
        worker = self._ensure_worker(role, request.subject)
        cpu = process_cpu_seconds(worker.pid)
        started = time.monotonic()
        outcome = self._exchange(worker, request.to_wire(), request.hard_limit, request.subject)
        wall = time.monotonic() - started
        mapped = mappings(worker.pid, request.watch) if request.watch else None
        return Reply(outcome, wall, max(process_cpu_seconds(worker.pid) - cpu, 0.0), mapped)

    def _ensure_worker(self, role: str, subject: str) -> _Worker:
        if role in self.workers:
            return self.workers[role]
        worker = self._spawn(role)
        try:
            hello = self._exchange(worker, {"op": "hello"}, IMPORT_TIMEOUT, subject)
        except faults.Fault as fault:
            # dies or hangs while importing: every later call would too
            detail = f"while importing the submission: {fault.detail or fault.headline()}"
            self.dead[role] = faults.TimeoutFault(subject, fault.seconds) \
                if isinstance(fault, faults.TimeoutFault) else faults.CrashFault(subject, detail)
            raise self.dead[role] from None
        value = hello.get("value") if hello.get("status") == "ok" else None
        if role == "main" and type(value) is dict and type(value.get("modules")) is dict:
            self.import_errors = {str(k): str(v)[:2000] for k, v in value["modules"].items() if v}
        return worker

    def _spawn(self, role: str) -> _Worker:
        # under the fork server's folder (removed with it, whatever happens to this process)
        root = Path(tempfile.mkdtemp(prefix="worker-", dir=self.server.workers))
        if role != "clean":
            shutil.copytree(self.source, root / "assignment")
            (root / "assignment" / "__init__.py").touch()  # the worker sees its copy read-only: made here
        (root / "scratch").mkdir()  # its scratch folder where it gets no private /tmp
        (root / "view").mkdir()  # where it builds the root it will see
        uid = None if self.uid is None else self.uid + ROLES[role]
        if uid is not None:
            for path in [root, *root.rglob("*")]:
                os.chown(path, uid, uid, follow_symlinks=False)
        root.chmod(0o700)
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        out_r, out_w = os.pipe()
        spec = {"root": str(root), "uid": uid, "limits": self.limits.to_dict(), "clean": role == "clean",
                "trusted": str(self.server.trusted) if role == "clean" else None}
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
        applied = tuple(str(p) for p in answer.get("protections", ()))
        if memory_cgroup is None:  # the grader's own statement: it watches the tree
            applied += (f"memory {self.limits.memory_mb} MB for its whole process tree (watched by the grader)",)
        if role == "main":
            self.protections = Protections(str(answer.get("mode", "")), applied,
                                           tuple(str(p) for p in answer.get("missing", ())))
        worker = _Worker(int(answer["pid"]), ours, root, out_r, self.limits, memory_cgroup)
        worker.uid = uid
        self.workers[role] = worker
        return worker

    def _exchange(self, worker: _Worker, request: dict, seconds: float, subject: str) -> dict:
        rid = worker.next_id
        worker.next_id += 1
        request = {"id": rid, **request}
        deadline = time.monotonic() + seconds  # for sending the question and getting the answer, together
        try:
            # a worker that stops reading its channel (a thread holding the interpreter) must not hold the
            # grader: a large question is sent by the deadline too (sendall's timeout is a total since 3.5)
            worker.channel.settimeout(seconds)
            framing.send(worker.channel, wire.encode(request).encode())
        except TimeoutError:
            self._kill(worker)
            raise faults.TimeoutFault(subject, round(seconds, 1)) from None
        except OSError:
            raise self._crashed(worker, subject) from None
        try:
            raw = self._receive(worker, deadline, subject, seconds)
            answer = wire.decode(raw)
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
                raise faults.CrashFault(subject, f"it printed more than {self.limits.flood_mb} MB of output")
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
            return faults.CrashFault(subject, f"it printed more than {self.limits.flood_mb} MB of output")
        if out_of_memory:
            return faults.CrashFault(subject, self._memory_message())
        return faults.CrashFault(subject, describe_status(status))

    def _kill(self, worker: _Worker) -> None:
        try:
            self.server.kill(worker.pid)
            if worker.uid is not None:
                self.server.sweep(worker.uid)
        except (OSError, RuntimeError):
            pass
        try:
            worker.channel.close()
        except OSError:
            pass
        worker.reader.join(timeout=2)
        self.output += worker.output[: max(0, self.limits.output_kb * 1024 - len(self.output))]
        shutil.rmtree(worker.root, ignore_errors=True)
        for role, live in list(self.workers.items()):
            if live is worker:
                del self.workers[role]

    def session(self) -> Session:
        live = b"".join(bytes(w.output) for w in self.workers.values())
        output = (bytes(self.output) + live).decode("utf-8", errors="replace")
        return Session(self.protections, dict(self.import_errors), output)

    def close(self) -> None:
        for worker in list(self.workers.values()):
            self._kill(worker)
        if self._own_server:
            self.server.close()


