"""The trusted side of isolation: a ``Door`` into a sandboxed worker process.

``WorkerDoor`` keeps one warm worker per submission and reuses it across calls
until it misbehaves. A call that runs past its probe's timeout, a worker that
dies (segfault, ``os._exit``, a resource limit), an answer that is not
well-formed, or an output flood: the worker is killed (with everything it
started), the call raises a ``Fault`` naming the function, and the next call
gets a fresh worker. The grader never waits on the worker without a deadline.
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
from typing import Any

from grader.harness import faults, wire
from grader.harness.door import Door, function_of
from grader.harness.probes import DEFAULT_TIMEOUT, PROBES
from grader.isolation import framing
from grader.isolation.sandbox import Limits, fresh_uid_base

HERE = Path(__file__).resolve().parent
GRADER_DIR = HERE.parent
IMPORT_TIMEOUT = 30.0
WORKER_FILES = ("__init__.py", "framing.py", "sandbox.py", "worker.py", "forkserver.py")


def stage_harness(dest: Path) -> Path:
    """Copy what a worker may see of the grader: the public harness and the worker code."""
    pkg = dest / "grader"
    shutil.copytree(GRADER_DIR / "harness", pkg / "harness",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
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
        harness = stage_harness(self.workdir / "harness")
        private = self.workdir / "private"
        private.mkdir(mode=0o700)
        self.path = str(private / "forkserver.sock")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GRADER_", "PYTEST", "HYPOTHESIS"))}
        env["OMP_NUM_THREADS"] = "1"
        env["PYTORCH_NVML_BASED_CUDA_CHECK"] = "1"  # the fork server must never initialise CUDA
        # -I: no PYTHONPATH, no user site, no working folder on sys.path; the bootstrap
        # puts the harness copy (and nothing of the staff repository) on it
        bootstrap = "import sys; sys.path.insert(0, sys.argv[1]); from grader.isolation.forkserver import main; main()"
        self.process = subprocess.Popen(
            [sys.executable, "-I", "-c", bootstrap, str(harness), self.path],
            cwd=str(harness), stdout=subprocess.PIPE, env=env, start_new_session=True,
        )
        line = self.process.stdout.readline() if self.process.stdout else b""
        if not line:
            raise RuntimeError("the fork server did not start")
        info = json.loads(line)
        self.pid = int(info["pid"])
        self.missing = list(info.get("missing", []))
        self._conn: socket.socket | None = None
        self._conn_pid = -1

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

    def spawn(self, spec: dict, channel_fd: int, output_fd: int) -> int:
        pid = int(self.request({"op": "spawn", "spec": spec}, [channel_fd, output_fd])["pid"])
        if pid <= 1:
            raise RuntimeError(f"the fork server reported an impossible worker pid {pid}")
        return pid

    def status(self, pid: int) -> int | None:
        return self.request({"op": "status", "pid": pid}).get("status")

    def kill(self, pid: int) -> None:
        self.request({"op": "kill", "pid": pid})

    def sweep(self, uid: int) -> None:
        self.request({"op": "sweep", "uid": uid})

    def close(self) -> None:
        if self.process.poll() is None and self._conn_pid in (-1, os.getpid()):
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
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait()
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
    """One live worker: its pid, channel, private folder and captured output."""

    def __init__(self, pid: int, channel: socket.socket, root: Path, output_fd: int, limits: Limits) -> None:
        self.pid, self.channel, self.root = pid, channel, root
        self.output = bytearray()
        self.output_total = 0
        self.flooded = False
        self.limits = limits
        self._fd = output_fd
        self.reader = threading.Thread(target=self._drain, daemon=True)
        self.reader.start()
        self.next_id = 1
        self.base_mb = _rss_mb(pid)  # the warm worker's own size, torch included

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


@dataclass
class GradingContext:
    """Set by the batch grader in each grading process: the shared fork server and this slot's user."""

    server: ForkServerHandle | None = None
    uid: int | None = None
    limits: Limits = field(default_factory=Limits)
    timeout_scale: float = 1.0
    door: "WorkerDoor | None" = None  # the door the run created, read back after it


CONTEXT = GradingContext()


class WorkerDoor(Door):
    """A door whose other side is a sandboxed worker process."""

    @classmethod
    def from_context(cls, package_dir: Path, *, label: str, test_budget: float) -> "WorkerDoor":
        door = cls(package_dir, label=label, test_budget=test_budget, server=CONTEXT.server,
                   uid=CONTEXT.uid, limits=CONTEXT.limits, timeout_scale=CONTEXT.timeout_scale)
        CONTEXT.door = door
        return door

    def __init__(
        self,
        package_dir: Path,
        *,
        label: str,
        test_budget: float,
        server: ForkServerHandle | None = None,
        uid: int | None = None,
        limits: Limits = Limits(),
        timeout_scale: float = 1.0,
    ) -> None:
        super().__init__(test_budget=test_budget)
        self.label = label
        self.source = Path(package_dir)  # the staged assignment/ package
        self._own_server = server is None
        self.server = server or ForkServerHandle()
        # as root, workers drop to an unprivileged user: this slot's, or the default one
        self.uid = uid if uid is not None else (fresh_uid_base(1) if os.geteuid() == 0 and server is None else None)
        self.limits = limits
        self.timeout_scale = timeout_scale
        self.worker: _Worker | None = None
        self.dead: faults.Fault | None = None  # the submission cannot even start
        self.protections: list[str] = []
        self.import_errors: dict[str, str] = {}
        self.output = bytearray()
        self.workers_started = 0

    # -- the door --------------------------------------------------------------------
    def _ask(self, probe: str, args: tuple) -> dict:
        subject = function_of(probe, args)
        if self.dead is not None:
            raise type(self.dead)(subject, self.dead.detail) if not isinstance(self.dead, faults.TimeoutFault) \
                else faults.TimeoutFault(subject, self.dead.seconds)
        worker = self._ensure_worker(subject)
        seconds = (PROBES[probe].timeout if probe in PROBES else DEFAULT_TIMEOUT) * self.timeout_scale
        return self._exchange(worker, {"op": "probe", "probe": probe, "args": list(args)}, seconds, subject)

    def _ensure_worker(self, subject: str) -> _Worker:
        if self.worker is not None:
            return self.worker
        worker = self._spawn()
        try:
            hello = self._exchange(worker, {"op": "hello"}, IMPORT_TIMEOUT * self.timeout_scale, subject)
        except faults.Fault as fault:
            # dies or hangs while importing: every later call would too
            detail = f"while importing the submission: {fault.detail or fault.headline()}"
            self.dead = faults.TimeoutFault(subject, fault.seconds) if isinstance(fault, faults.TimeoutFault) \
                else faults.CrashFault(subject, detail)
            raise self.dead from None
        value = hello.get("value") if hello.get("status") == "ok" else None
        if type(value) is dict:
            self.protections = [str(p) for p in value.get("protections", []) if type(p) is str]
            modules = value.get("modules", {})
            if type(modules) is dict:
                self.import_errors = {str(k): str(v) for k, v in modules.items() if v}
        return worker

    def _spawn(self) -> _Worker:
        root = Path(tempfile.mkdtemp(prefix="worker-"))
        shutil.copytree(self.source, root / "assignment")
        (root / "scratch").mkdir()
        if self.uid is not None:
            for path in [root, *root.rglob("*")]:
                os.chown(path, self.uid, self.uid, follow_symlinks=False)
        root.chmod(0o700)
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        out_r, out_w = os.pipe()
        spec = {"root": str(root), "uid": self.uid, "limits": self.limits.to_dict()}
        try:
            pid = self.server.spawn(spec, theirs.fileno(), out_w)
        finally:
            theirs.close()
            os.close(out_w)
        self.workers_started += 1
        self.worker = _Worker(pid, ours, root, out_r, self.limits)
        return self.worker

    def _exchange(self, worker: _Worker, request: dict, seconds: float, subject: str) -> dict:
        rid = worker.next_id
        worker.next_id += 1
        request = {"id": rid, **request}
        try:
            framing.send(worker.channel, wire.encode(request).encode())
        except OSError:
            raise self._crashed(worker, subject) from None
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self._kill(worker)
                raise faults.TimeoutFault(subject, round(seconds, 1))
            ready, _, _ = select.select([worker.channel], [], [], min(left, 0.25))
            if worker.flooded:
                self._kill(worker)
                raise faults.CrashFault(subject, f"it printed more than {self.limits.flood_mb} MB of output")
            if ready:
                break
            if self.limits.watch_memory and _rss_mb(worker.pid) > worker.base_mb + self.limits.memory_mb:
                self._kill(worker)
                raise faults.CrashFault(subject, f"it used more than {self.limits.memory_mb} MB of memory")
        try:
            worker.channel.settimeout(max(deadline - time.monotonic(), 1.0))
            raw = framing.recv(worker.channel)
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

    def _crashed(self, worker: _Worker, subject: str) -> faults.Fault:
        status = None
        try:
            status = self.server.status(worker.pid)
        except (OSError, RuntimeError):
            pass
        flooded = worker.flooded
        self._kill(worker)
        if flooded:
            return faults.CrashFault(subject, f"it printed more than {self.limits.flood_mb} MB of output")
        return faults.CrashFault(subject, describe_status(status))

    def _kill(self, worker: _Worker) -> None:
        try:
            self.server.kill(worker.pid)
            if self.uid is not None:
                self.server.sweep(self.uid)
        except (OSError, RuntimeError):
            pass
        try:
            worker.channel.close()
        except OSError:
            pass
        worker.reader.join(timeout=2)
        self.output += worker.output[: max(0, self.limits.output_kb * 1024 - len(self.output))]
        shutil.rmtree(worker.root, ignore_errors=True)
        if self.worker is worker:
            self.worker = None

    def close(self) -> None:
        if self.worker is not None:
            self._kill(self.worker)
        if self._own_server:
            self.server.close()

    def captured_output(self) -> str:
        data = bytes(self.output) + (bytes(self.worker.output) if self.worker else b"")
        return data.decode("utf-8", errors="replace")

    def describe(self) -> dict[str, Any]:
        return {"protections": self.protections, "import_errors": self.import_errors,
                "workers_started": self.workers_started}
