"""The worker: one sandboxed process that imports one submission (or none) and answers probes.

It is forked from the fork server (``forkserver.py``), sandboxes itself
(``sandbox.py``) and reports, before any submission code runs, which
protections took: that report goes to the fork server, which hands it to the
grader with the worker's pid, so nothing the submission does later can rewrite
it. Then it serves requests on its channel until the channel closes:

    {"id": 1, "op": "hello"}                                  -> import status of each module
    {"id": 2, "op": "probe", "probe": ..., "args": [...], ...} -> an outcome (grader.harness.runner)

A *clean* worker imports no submission at all: it answers the judges that need
a process no submission ever ran in (the harness's own measurements).

Requests and answers are wire-format text (``grader.harness.wire``). Whatever
the submission's code does here, the grader only ever sees such text.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

from grader.harness import wire
from grader.harness.impl import Implementation
from grader.harness.runner import Runner
from grader.isolation import framing, sandbox


def become_worker(spec: dict[str, Any], channel: socket.socket, output_fd: int, report_fd: int) -> None:
    """Runs in the forked child. Never returns: ends with ``os._exit``."""
    try:
        os.setsid()
        os.dup2(output_fd, 1)
        os.dup2(output_fd, 2)
        os.close(output_fd)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        _sandbox(spec, report_fd)
        _serve(spec, channel)
    except BaseException as exc:  # noqa: BLE001 - a worker must never return into the fork server
        try:
            os.write(2, f"worker failed to start: {type(exc).__name__}: {exc}\n".encode())
        finally:
            os._exit(70)
    os._exit(0)


def _report(fd: int, **fields: Any) -> None:
    os.write(fd, (json.dumps(fields) + "\n").encode())


def _sandbox(spec: dict[str, Any], report_fd: int) -> None:
    root_mode = os.geteuid() == 0 and spec.get("uid") is not None
    protections: list[str] = []
    pid_reported = False
    if root_mode:
        if sandbox.unshare(sandbox.CLONE_NEWNET | sandbox.CLONE_NEWNS | sandbox.CLONE_NEWPID):
            protections += ["no network", "private process list"]
            child = os.fork()
            if child:
                # The real worker by its pid out here (in there it is pid 1), then leave.
                _report(report_fd, pid=child)
                os._exit(0)
            pid_reported = True
            if not sandbox.mount_private_proc():
                protections.remove("private process list")
        elif sandbox.unshare(sandbox.CLONE_NEWNET):
            protections.append("no network")

    home = Path(spec["root"])
    scratch = home / "scratch"
    os.chdir(home)
    keep = {k: os.environ[k] for k in ("CUDA_VISIBLE_DEVICES", "PYTORCH_CUDA_ALLOC_CONF", "NVIDIA_VISIBLE_DEVICES",
                                       "ASSIGNMENT_CUDA", "PYTORCH_NVML_BASED_CUDA_CHECK") if k in os.environ}
    os.environ.clear()
    os.environ.update({
        "HOME": str(scratch), "TMPDIR": str(scratch), "PATH": "/usr/bin:/bin",
        "OMP_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1", "LANG": "C.UTF-8", **keep,
    })
    import tempfile

    tempfile.tempdir = str(scratch)
    limits = sandbox.Limits(**spec.get("limits", {}))
    protections += [f"limit: {name}" for name in sandbox.apply_limits(limits, root_mode)]
    if spec.get("clean"):  # the judges' code: only a clean worker ever sees it
        import grader

        grader.__path__.append(str(Path(spec["trusted"]) / "grader"))
        import grader.judges  # noqa: F401
    if root_mode:
        sandbox.drop_privileges(int(spec["uid"]))
        protections.append(f"unprivileged user {spec['uid']}")
    # nothing of the harness copy or of the staff repository on the import path
    sys.path[:] = [str(home)] + [p for p in sys.path if _is_library(p)]
    sys.dont_write_bytecode = True
    mode = "root" if root_mode else "same user"
    fields = {"mode": mode, "protections": protections}
    if not pid_reported:
        fields["pid"] = os.getpid()
    _report(report_fd, **fields)  # before any submission code runs
    os.close(report_fd)


def _is_library(path: str) -> bool:
    """The standard library and installed packages, nothing else."""
    import sysconfig

    paths = sysconfig.get_paths()
    roots = [paths.get("stdlib", ""), paths.get("platstdlib", "")]
    return bool(path) and (
        any(r and path.startswith(r) for r in roots) or "site-packages" in path or "dist-packages" in path
    )


def _serve(spec: dict[str, Any], channel: socket.socket) -> None:
    clean = bool(spec.get("clean"))
    runner = Runner(None if clean else Implementation("assignment", Path(spec["root"])))
    while True:
        try:
            request = wire.decode(framing.recv(channel))
        except (framing.ChannelClosed, OSError):
            return
        answer = _answer(runner, request, clean)
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            text = wire.encode(answer)
        except BaseException as exc:  # noqa: BLE001 - a returned object that cannot be read
            text = wire.encode({"id": request.get("id"), "outcome": {
                "status": "raised", "function": str(request.get("subject", "")),
                "exc_type": type(exc).__name__, "message": "the returned value could not be read", "where": ""}})
        try:
            framing.send(channel, text.encode())
        except framing.MessageTooLarge:
            framing.send(channel, wire.encode({"id": request.get("id"), "outcome": {
                "status": "raised", "function": str(request.get("subject", "")),
                "exc_type": "ValueError", "message": "the returned value is too large", "where": ""}}).encode())
        except OSError:
            return


def _answer(runner: Runner, request: Any, clean: bool) -> dict[str, Any]:
    rid = request.get("id") if type(request) is dict else None
    op = request.get("op") if type(request) is dict else None
    if op == "hello":
        return {"id": rid, "outcome": {"status": "ok", "value": {"modules": runner.import_errors()}}}
    if op == "probe":
        return {"id": rid, "outcome": runner.answer(request, judges=clean)}
    return {"id": rid, "outcome": {"status": "harness_error", "function": "worker",
                                   "message": f"unknown request {op!r}"}}
