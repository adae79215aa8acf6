"""The fork server: a warm, clean process that forks sandboxed workers on request.

Started once per grading batch as a fresh interpreter (never forked from the
grader, so it holds nothing of the reference or the tests in memory). It imports
torch and everything a submission may reasonably use, exercises the lazy paths
(FlopCounterMode, autocast, optimizers, serialization) so that workers never
need to import after dropping privileges (where a CUDA driver is, never a path
that starts CUDA: no child forked after that could), then serves on a Unix socket:

    spawn   {"op": "spawn", "spec": {...}} + two fds (channel, output pipe)
            -> {"pid": <worker pid>, "mode": ..., "protections": [...], "missing": [...],
                "memory_cgroup": <its memory group's folder, or None>,
                "memory_holder": <the memory group of its submission's workers, or None>}
    status  {"op": "status", "pid": p}  -> {"status": <wait status or None>}
    sweep   {"op": "sweep", "uid": u}   kill every process of that user id
    kill    {"op": "kill", "pid": p}    kill one worker (and its namespace/group)
    shutdown                            kill every worker and stray, then exit

It is a child subreaper, so descendants a worker leaves behind (double forks,
daemons) come back to it and are killed when their worker is. Where it can, it
gives each worker a control group of its own (``cgroups.py``), inside one group for
all the workers of its submission (the spec's ``submission``) with the same limits, so
that a submission's five or more workers together get no more memory, CPU or
processes than one; it removes each when the worker is gone (the submission's with its
last worker), and decides once which paths workers may see (``view.py``).

A worker is forked from here, so it would inherit every descriptor this process
holds (the listening socket, other grading processes' connections, the epoll set
they are registered in): the child closes all of them first thing, keeping only
its own channel, output pipe and report pipe.
"""

from __future__ import annotations

import gc
import json
import os
import re
import secrets
import select
import selectors
import shutil
import signal
import socket
import sys
import time
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36
MAX_REQUEST = 65536

PRELOAD_STDLIB = (
    "abc array bisect collections collections.abc contextlib copy dataclasses decimal enum "
    "fractions functools gc gzip hashlib heapq inspect io itertools json logging math numbers "
    "operator os pathlib pickle random re shutil statistics string struct tempfile textwrap time "
    "timeit types typing typing_extensions uuid warnings weakref zipfile"
).split()
PRELOAD_LIBRARIES = (
    "numpy numpy.random numpy.lib.format torch torch.nn torch.nn.functional torch.nn.init "
    "torch.optim torch.optim.lr_scheduler torch.autograd torch.autograd.graph torch.func torch.amp "
    "torch.utils.data torch.utils.flop_counter torch.utils._python_dispatch torch.overrides "
    "torch.testing einops einops.layers.torch jaxtyping typeguard"
).split()


def prewarm() -> list[str]:
    """Import and exercise what submissions use; returns modules that failed to import."""
    import importlib

    missing = []
    for name in PRELOAD_STDLIB + PRELOAD_LIBRARIES:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - optional extras
            missing.append(name)
    import torch

    torch.set_num_threads(1)  # a forking process must not own a thread pool
    _exercise(torch)
    from grader.harness.adapters import compile_runs_as_written

    compile_runs_as_written()
    from grader.harness.probe import load_all

    load_all()
    import grader.harness.runner  # noqa: F401
    import grader.isolation.worker  # noqa: F401
    from grader.harness import warning_frames

    warning_frames.install()  # every warn imported so far made the cut, once, not in each worker

    return missing


def _cuda_driver():
    """The CUDA driver library, or None on a machine without one (torch loads it at import where it has one)."""
    import ctypes

    try:
        return ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None


def cuda_driver_present() -> bool:
    """Whether this machine has a CUDA driver."""
    return _cuda_driver() is not None


def cuda_starts_in_a_child() -> bool | None:
    """Whether a child forked from here now can start CUDA (the driver's ``cuInit`` in it succeeds);
    None where there is no driver to ask. A child forked after its parent started CUDA cannot (torch
    loads the driver at import, so whether it is loaded says nothing; only a child's cuInit tells)."""
    driver = _cuda_driver()
    if driver is None:
        return None
    pid = os.fork()
    if pid == 0:
        try:
            os._exit(min(int(driver.cuInit(0)), 255))
        finally:
            os._exit(255)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def _exercise(torch) -> None:
    """Run each lazily-initialised path once (imports happen on first use)."""
    import io
    import tempfile

    import einops
    import numpy as np
    from torch import nn
    from torch.nn import functional as F
    from torch.utils.flop_counter import FlopCounterMode

    model = nn.Sequential(nn.Linear(4, 4, bias=False), nn.Linear(4, 1, bias=False))
    x, y = torch.randn(3, 4), torch.randn(3)
    # Never where a CUDA driver is: a process that forks must never start CUDA, or no child forked after
    # can (``CUDA error: initialization error``), and every worker is forked from here. The autograd
    # engine's first backward counts every device type's devices, which starts CUDA (cuInit), and an
    # optimizer's step asks torch.accelerator for the current stream; on an H200 every worker's CUDA
    # failed from these lines. There, each worker pays for its own first step.
    if not cuda_driver_present():
        for optimizer in (torch.optim.AdamW(model.parameters()),
                          torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)):
            with FlopCounterMode(display=False):
                loss = F.mse_loss(model(x).squeeze(-1), y)
                loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        for dtype in (torch.bfloat16, torch.float16):
            with torch.autocast("cpu", dtype=dtype):
                loss = F.mse_loss(model(x).squeeze(-1), y)
            scaler = torch.amp.GradScaler("cpu")
            scaler.scale(loss).backward()
            scaler.step(torch.optim.AdamW(model.parameters()))
            scaler.update()
    else:
        with FlopCounterMode(display=False):
            F.mse_loss(model(x).squeeze(-1), y)
    buffer = io.BytesIO()
    torch.save({"model": model.state_dict(), "step": 1}, buffer)
    buffer.seek(0)
    torch.load(buffer, weights_only=True)
    with tempfile.TemporaryDirectory() as tmp:
        np.save(f"{tmp}/d.npy", np.zeros((2, 3), np.float32))
        np.load(f"{tmp}/d.npy", mmap_mode="r")
    t = torch.randn(2, 3, 4, 8)
    einops.einsum(t, t, "b s h d, b t h d -> b h s t")
    einops.rearrange(einops.rearrange(t, "b s h d -> b s (h d)"), "b s (h d) -> b h s d", h=4)
    einops.reduce(t, "b s h d -> b h", "sum")
    einops.repeat(t[0, 0, 0], "d -> n d", n=2)
    try:  # the pairing the stubs name: jaxtyping checked by typeguard 2.13.3
        from jaxtyping import Float, jaxtyped
        from typeguard import typechecked

        @jaxtyped(typechecker=typechecked)
        def f(a: Float[torch.Tensor, "n m"]) -> Float[torch.Tensor, "n"]:
            return a.sum(-1)

        f(torch.randn(2, 3))
        try:
            f(torch.randn(2))
        except Exception:  # noqa: BLE001 - the point: a wrong shape raises
            pass
    except ImportError:
        pass
    torch.nn.init.trunc_normal_(torch.empty(3, 3), std=0.5, a=-1.5, b=1.5)
    torch.testing.assert_close(torch.ones(2), torch.ones(2))
    torch.tensor([1e-8], dtype=torch.float16).to(torch.float8_e4m3fn)


class ForkServer:
    def __init__(self, path: str, harness: str, forbidden: str | None) -> None:
        from grader.isolation import cgroups, view

        self.path = path
        self.harness = harness
        self.view = view.allowed_paths(Path(forbidden) if forbidden else None)
        self.groups = cgroups.Groups(f"grader-{os.getpid()}-{secrets.token_hex(3)}")
        self.group_of: dict[int, dict[str, str]] = {}  # worker pid -> its cgroup folders
        self.dying: list[dict[str, str]] = []  # groups to remove once their last process is gone
        self.base_mb = _rss_mb()  # a worker's copy-on-write share of this process counts towards its group
        self.parent = os.getppid()  # the grader: when it is gone, so is everything here
        self.spawned = 0
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.listener.bind(path)
        os.chmod(path, 0o600)
        self.listener.listen(64)
        # never block on a socket the selector only claimed was ready: one stuck call would stall every grader
        self.listener.setblocking(False)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.listener, selectors.EVENT_READ)
        self.statuses: dict[int, int] = {}
        self.workers: set[int] = set()
        # worker pid -> the connection (its descriptor here) that asked for it: a grading process killed at
        # its time limit never says goodbye, and its workers must not live on into the next submission's turn
        self.owner: dict[int, int] = {}

    def run(self) -> None:
        while True:
            for key, _ in self.selector.select(timeout=0.2):
                if key.fileobj is self.listener:
                    try:
                        conn, _ = self.listener.accept()
                    except BlockingIOError:
                        continue
                    conn.setblocking(False)
                    self.selector.register(conn, selectors.EVENT_READ)
                else:
                    self._handle(key.fileobj)
            self._reap()
            if os.getppid() != self.parent:  # the grader was killed: take everything with us
                self._shutdown()
                for folder in (os.path.dirname(self.harness), os.path.dirname(self.path)):
                    shutil.rmtree(folder, ignore_errors=True)
                return

    def _handle(self, conn: socket.socket) -> None:
        try:
            data, fds, _, _ = socket.recv_fds(conn, MAX_REQUEST, 4)
        except BlockingIOError:
            return
        except OSError:
            data, fds = b"", []
        if not data:  # its grading process is done, or was killed: so are the workers it asked for
            for pid in [pid for pid, owner in self.owner.items() if owner == conn.fileno()]:
                self._kill(pid)
            self.selector.unregister(conn)
            conn.close()
            return
        try:
            request = json.loads(data)
            reply = self._dispatch(request, fds, conn.fileno())
        except SystemExit:
            raise
        except Exception as exc:  # noqa: BLE001 - answer, never die
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        finally:
            for fd in fds:
                try:
                    os.close(fd)
                except OSError:
                    pass
        try:
            conn.send(json.dumps(reply).encode())
        except OSError:
            pass

    def _dispatch(self, request: dict, fds: list[int], connection: int) -> dict:
        op = request.get("op")
        if op == "ping":
            return {"pid": os.getpid()}
        if op == "spawn":
            return self._spawn(request["spec"], fds, connection)
        if op == "status":
            return {"status": self._status(int(request["pid"]))}
        if op == "kill":
            self._kill(int(request["pid"]))
            return {"ok": True}
        if op == "sweep":
            self._sweep(int(request["uid"]))
            return {"ok": True}
        if op == "shutdown":
            self._shutdown()
            # everything is killed and cleaned up: leave without tearing the interpreter down (with torch
            # loaded, a quarter of a second the grader waits for before its own exit)
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(0)
        raise ValueError(f"unknown op {op!r}")

    def _spawn(self, spec: dict, fds: list[int], connection: int) -> dict:
        channel_fd, output_fd = fds[0], fds[1]
        limits = spec.get("limits") or {}
        self.spawned += 1
        group = {}
        # one submission's workers share one group's limits: more of them is not more of the machine
        submission = spec.get("submission")
        within = f"s{submission}" if type(submission) is str and re.fullmatch(r"[0-9a-f]{8,32}", submission) else None
        if self.groups.bases:
            group = self.groups.create(f"w{self.spawned}", int(limits.get("memory_mb", 3072)) + self.base_mb,
                                       int(limits.get("processes", 64)), float(limits.get("cpus", 1.0)), within)
        spec = {**spec, "view": self.view, "harness": self.harness, "cgroup": group}
        report_r, report_w = os.pipe()
        gc.freeze()  # a worker's collections skip what it inherits from here (see grader.batch.Scheduler._start)
        pid = os.fork()
        if pid == 0:  # the worker-to-be
            try:
                self._close_all_but({channel_fd, output_fd, report_w})
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                from grader.isolation.worker import become_worker

                become_worker(spec, socket.socket(fileno=channel_fd), output_fd, report_w)
            finally:
                os._exit(71)
        os.close(report_w)
        report = self._read_report(report_r)
        os.close(report_r)
        worker = report.get("pid") if type(report.get("pid")) is int and report["pid"] > 1 else pid
        self.workers.add(worker)
        self.owner[worker] = connection
        if group:
            self.group_of[worker] = group
        return {"pid": worker, "mode": _said(report.get("mode"), "unknown"),
                "protections": _statements(report.get("protections")), "missing": _statements(report.get("missing")),
                "memory_cgroup": group.get("memory"),
                "memory_holder": os.path.dirname(group["memory"]) if group and within else None}

    def _close_all_but(self, keep: set[int]) -> None:
        """In the worker-to-be: close every descriptor of ours, keeping ``keep`` (and 0-2, replaced later)."""
        for key in list(self.selector.get_map().values()):  # closed as objects: no stale fd number left in one
            key.fileobj.close()
        self.selector.close()  # the epoll set: a worker that could add to it would stall every later spawn
        for fd in sorted(_open_fds() - keep - {0, 1, 2}):  # anything else (nothing, today)
            try:
                os.close(fd)
            except OSError:
                pass

    @staticmethod
    def _read_report(fd: int) -> dict:
        """What the worker-to-be reports before any submission code runs: its pid (as seen out here)
        and the protections that took, on one or two JSON lines; whatever came by the deadline."""
        data = b""
        report: dict = {}
        deadline = time.monotonic() + 30
        while not ("pid" in report and "protections" in report) and time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], max(deadline - time.monotonic(), 0))
            chunk = os.read(fd, 4096) if ready else b""
            if not chunk:
                break
            data += chunk
            *lines, data = data.split(b"\n")
            for line in lines:
                try:
                    fields = json.loads(line)
                except ValueError:
                    continue
                if type(fields) is dict:
                    report.update(fields)
        return report

    def _reap(self) -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            self.statuses[pid] = status
            self.workers.discard(pid)
            self.owner.pop(pid, None)  # its number may be reused: never killed through an old entry
            self._forget_group(pid)
        self.dying = [group for group in self.dying if not self.groups.remove(group)]

    def _forget_group(self, pid: int) -> None:
        """A worker is gone: kill what is left in its group, and remove the group (later, if still busy)."""
        group = self.group_of.pop(pid, None)
        if group:
            self.groups.kill(group)
            if not self.groups.remove(group):
                self.dying.append(group)

    def _status(self, pid: int) -> int | None:
        # A worker that exits closes its channel after its memory is freed and just before it becomes a
        # zombie: its status follows within milliseconds. One that closes its channel and lives on has no
        # status to wait for, and every grading process's requests queue behind this one meanwhile.
        deadline = time.monotonic() + 0.25
        while pid not in self.statuses and time.monotonic() < deadline:
            self._reap()
            time.sleep(0.01)
        return self.statuses.get(pid)

    def _shutdown(self) -> None:
        """Every worker and everything they left behind, and their groups."""
        self.workers.clear()
        self.owner.clear()
        self._kill_strays()
        for pid in list(self.group_of):
            self._forget_group(pid)
        self.groups.close()

    def _kill(self, pid: int) -> None:
        if pid <= 1 or pid == os.getpid():  # never kill(-1) or kill(0): that is everyone
            return
        for target in (-pid, pid):  # its process group, then itself (pid 1 of its namespace)
            try:
                os.kill(target, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self.workers.discard(pid)
        self.owner.pop(pid, None)
        self._forget_group(pid)
        self._kill_strays()

    def _kill_strays(self) -> None:
        """Children of ours that are not live workers: what a dead worker left behind."""
        me = os.getpid()
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == me and int(entry) not in self.workers and int(entry) > 1:
                try:
                    os.kill(int(entry), signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass

    def _sweep(self, uid: int) -> None:
        """Kill every process of a worker user id (run as that user: kill(-1) then means 'all mine')."""
        if os.geteuid() != 0 or uid < 1000:  # never root, never a system account
            return
        pid = os.fork()
        if pid == 0:
            try:
                os.setresgid(uid, uid, uid)
                os.setresuid(uid, uid, uid)
                if os.getresuid() == (uid, uid, uid):  # kill(-1) as root would be everyone
                    os.kill(-1, signal.SIGKILL)
            finally:
                os._exit(0)
        os.waitpid(pid, 0)


def _open_fds() -> set[int]:
    try:
        return {int(fd) for fd in os.listdir("/proc/self/fd")}
    except OSError:  # no /proc: every number up to the limit
        return set(range(os.sysconf("SC_OPEN_MAX") if os.sysconf("SC_OPEN_MAX") > 0 else 1024))


def _rss_mb() -> int:
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 2**20
    except (OSError, ValueError, IndexError):
        return 0


_STATEMENT_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;/()[]=+-_'")


def _said(text, default: str) -> str:
    """A statement of the worker's report, as the grader will print it: plain words only. The report
    is written before any submission code runs; this is the belt to that brace."""
    if type(text) is not str or not text or len(text) > 300 or not set(text) <= _STATEMENT_CHARS:
        return default
    return text


def _statements(items) -> list[str]:
    if type(items) is not list:
        return []
    return [_said(item, "(an unreadable statement)") for item in items[:32]]


def main() -> None:
    harness, path = sys.argv[1], sys.argv[2]  # the harness copy is already on sys.path
    forbidden = os.fsdecode(sys.stdin.buffer.readline().rstrip(b"\n")) or None  # the staff repository
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)  # nothing more comes on stdin, and no worker inherits the pipe
    os.close(devnull)
    from grader.harness.longlived import long_lived

    with long_lived():  # what prewarm imports lives as long as this process
        missing = prewarm()
    try:
        import ctypes

        ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except OSError:
        pass
    # whether this process made CUDA unusable to its children (not where there is no driver); asked before
    # the server runs, which reaps every child of this process
    cuda_started = cuda_starts_in_a_child() is False
    server = ForkServer(path, harness, forbidden)
    sys.stdout.write(json.dumps({"ready": True, "pid": os.getpid(), "missing": missing, "cuda_started": cuda_started,
                                 "cgroups": server.groups.prefixes(), "view": server.view}) + "\n")
    sys.stdout.flush()
    server.run()


if __name__ == "__main__":
    main()
