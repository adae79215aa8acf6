"""The fork server's handle: starting it, talking to it, shutting it down with everything it made.

The fork server (``grader.isolation.forkserver``) is a fresh interpreter that
imports torch and the harness once and forks every sandboxed worker. This module
imports nothing heavy, so a grading command can launch it first
(``ForkServerHandle(wait=False)``) and do its own imports while the fork server
does its own, on another core.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from grader.isolation import cgroups

HERE = Path(__file__).resolve().parent
GRADER_DIR = HERE.parent
IMPORT_TIMEOUT = 30.0
# a later worker's limit, once one worker's import of the submission ran to its own (``transport._ensure_worker``):
# importing a module takes well under a second (the libraries are loaded before the fork), and one that computes
# a while at import (a table, a cached result) is given as long as a call (a loop in __init__.py, which every
# worker imports, then costs 26 + 9 * 10 s, where it cost 10 * 30 s)
IMPORT_AFTER_A_HANG = 10.0
START_TIMEOUT = 180.0  # for the fork server's imports, on a loaded machine
WORKER_FILES = ("__init__.py", "framing.py", "sandbox.py", "seccomp.py", "view.py", "cgroups.py", "worker.py",
                "forkserver.py", "import_origins.py")
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


# What of the grader's environment the fork server gets: what finds libraries and devices, and the
# locale; nothing else. Every worker is forked from it, and the block of environment strings an exec'd
# process starts with stays in its memory (at the top of its stack) however ``os.environ`` is cleared
# later: a worker can read it. So no credential, token or seed of the grader's may be in it.
FORK_SERVER_ENVIRONMENT = ("PATH", "HOME", "TMPDIR", "LANG", "LANGUAGE", "LD_LIBRARY_PATH")
FORK_SERVER_PREFIXES = ("LC_", "CUDA_", "NVIDIA_", "PYTORCH_", "ASSIGNMENT_")


def fork_server_environment(environ) -> dict[str, str]:
    """The allow-listed part of ``environ``, with what the fork server must have set."""
    env = {k: v for k, v in environ.items() if k in FORK_SERVER_ENVIRONMENT or k.startswith(FORK_SERVER_PREFIXES)}
    env["OMP_NUM_THREADS"] = "1"
    return env


class ForkServerHandle:
    """Starts the fork server (a fresh interpreter) and talks to it."""

    def __init__(self, workdir: Path | None = None, *, wait: bool = True) -> None:
        """``wait=False``: return as soon as the fork server is launched (it imports torch meanwhile);
        ``wait_ready()`` before the first request."""
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="grader-fs-"))
        self.workdir.chmod(0o711)
        self.private = self.workdir / "private"  # the socket's folder: the grader's alone
        self.process: subprocess.Popen | None = None
        self.cgroups: list[str] = []  # what names the fork server's control groups (prefixes), for close()
        self.missing: list[str] = []  # what it could not preload
        self.cuda_started = False
        self._conn: socket.socket | None = None
        self._conn_pid = -1
        self._lock = threading.Lock()  # one request at a time on the connection (a lookahead thread, a test)
        self._ready = False
        self._owner = os.getpid()  # only this process reads the fork server's first line
        try:
            self._launch()
            if wait:
                self.wait_ready()
        except BaseException:
            self.close()
            raise

    def _launch(self) -> None:
        harness = stage_harness(self.workdir / "harness")
        # clean workers' path, the judges in it: the grader's alone (0700). A clean worker imports the judges
        # before it drops to a user of its own (``worker._sandbox``), so no other user of the machine needs
        # to read them: a name another user learns (a clean worker's /proc/<pid>/mountinfo is world-readable)
        # opens nothing. (A name no one can guess too: the folder above is 0711, passable, not listable.)
        self.trusted = stage_harness(self.workdir / f"trusted-{secrets.token_hex(16)}", judges=True)
        self.trusted.chmod(0o700)
        self.workers = self.workdir / "workers"  # every worker's folder: gone with the fork server
        self.workers.mkdir(mode=0o711)
        if len(os.fsencode(self.private)) > 80:  # a socket's path has at most 107 bytes: a long $TMPDIR
            self.private = Path(tempfile.mkdtemp(prefix="grader-fs-", dir="/tmp"))
        else:
            self.private.mkdir(mode=0o700)
        self.path = str(self.private / "forkserver.sock")
        env = fork_server_environment(os.environ)
        env["PYTORCH_NVML_BASED_CUDA_CHECK"] = "1"  # the fork server must never initialise CUDA
        env["TORCHINDUCTOR_CACHE_DIR"] = str(self.workdir / "torch")  # not $TMPDIR/torchinductor_<user>
        # -I: no PYTHONPATH, no user site, no working folder on sys.path; the bootstrap
        # puts the harness copy (and nothing of the staff repository) on it
        bootstrap = "import sys; sys.path.insert(0, sys.argv[1]); from grader.isolation.forkserver import main; main()"
        # the staff repository's path on stdin, not argv: every worker's /proc/self/cmdline is the fork
        # server's command line (a fork does not exec), and its path is nothing a worker needs
        self.process = subprocess.Popen(
            [sys.executable, "-I", "-c", bootstrap, str(harness), self.path],
            cwd=str(harness), stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, start_new_session=True,
        )
        self.process.stdin.write(os.fsencode(STAFF_REPOSITORY) + b"\n")
        self.process.stdin.close()

    def wait_ready(self) -> None:
        """Wait for the fork server's first line: its pid, what it preloaded, the view it built.
        (A process forked from the owner never reads it: its first request waits for the socket.)"""
        if self._ready or os.getpid() != self._owner:
            return
        line = self.process.stdout.readline() if self.process and self.process.stdout else b""
        if not line:
            raise RuntimeError("the fork server did not start")
        info = json.loads(line)
        self.pid = int(info["pid"])
        self.missing = list(info.get("missing", []))
        self.cuda_started = info.get("cuda_started") is True  # then no worker forked from it can use CUDA
        self.cgroups = [str(p) for p in info.get("cgroups", [])]
        self.view = [str(p) for p in info.get("view", [])]  # the paths every worker sees
        self._ready = True

    # -- requests ------------------------------------------------------------------
    def _connection(self) -> socket.socket:
        if self._conn is None or self._conn_pid != os.getpid():  # a forked grading child needs its own
            deadline = time.monotonic() + START_TIMEOUT
            while True:
                conn = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
                try:  # the socket appears when the fork server is ready: a grading process forked
                    conn.connect(self.path)  # before then starts its own work, and waits only here
                    break
                except (FileNotFoundError, ConnectionRefusedError):
                    conn.close()
                    if self._ready or time.monotonic() > deadline or not self._running():
                        raise RuntimeError("the fork server did not start") from None
                    time.sleep(0.02)
            self._conn, self._conn_pid = conn, os.getpid()
        return self._conn

    def _running(self) -> bool:
        """Whether the fork server's process is alive (asked from any process: not only its parent)."""
        try:
            with open(f"/proc/{self.process.pid}/stat") as handle:
                return handle.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
        except (OSError, IndexError, AttributeError):
            return False

    def request(self, payload: dict, fds: list[int] = (), timeout: float = 60.0) -> dict:
        self.wait_ready()
        with self._lock:
            return self._request(payload, fds, timeout)

    def _request(self, payload: dict, fds: list[int], timeout: float) -> dict:
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
        try:  # what it says of itself: the control groups to remove if it cannot
            self.wait_ready()
        except (RuntimeError, ValueError, KeyError):
            pass
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


