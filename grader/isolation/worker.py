"""The worker: one sandboxed process that imports one submission and answers probes.

It is forked from the fork server (``forkserver.py``), sandboxes itself
(``sandbox.py``), then serves requests on its channel until the channel closes:

    {"id": 1, "op": "hello"}                        -> protections, import status
    {"id": 2, "op": "probe", "probe": ..., "args": [...]}  -> {"status": "ok", ...}

Requests and answers are wire-format text (``grader.harness.wire``). Whatever
the student's code does here, the grader only ever sees such text.
"""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path
from typing import Any

from grader.harness import wire
from grader.harness.calls import run_probe
from grader.harness.impl import MODULES, Implementation
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
        protections = _sandbox(spec, report_fd)
        _serve(spec, channel, protections)
    except BaseException as exc:  # noqa: BLE001 - a worker must never return into the fork server
        try:
            os.write(2, f"worker failed to start: {type(exc).__name__}: {exc}\n".encode())
        finally:
            os._exit(70)
    os._exit(0)


def _sandbox(spec: dict[str, Any], report_fd: int) -> list[str]:
    root_mode = os.geteuid() == 0 and spec.get("uid") is not None
    protections: list[str] = []
    reported = False
    if root_mode:
        if sandbox.unshare(sandbox.CLONE_NEWNET | sandbox.CLONE_NEWNS | sandbox.CLONE_NEWPID):
            protections += ["no network", "private process list"]
            child = os.fork()
            if child:
                # Report the real worker by its pid out here (in there it is pid 1),
                # then leave: only this process writes the report.
                os.write(report_fd, f"{child}\n".encode())
                os._exit(0)
            reported = True
            if not sandbox.mount_private_proc():
                protections.remove("private process list")
        elif sandbox.unshare(sandbox.CLONE_NEWNET):
            protections.append("no network")
    if not reported:
        os.write(report_fd, f"{os.getpid()}\n".encode())
    os.close(report_fd)

    home = Path(spec["root"])
    scratch = home / "scratch"
    os.chdir(home)
    os.environ.clear()
    os.environ.update({
        "HOME": str(scratch), "TMPDIR": str(scratch), "PATH": "/usr/bin:/bin",
        "OMP_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1", "LANG": "C.UTF-8",
    })
    import tempfile

    tempfile.tempdir = str(scratch)
    limits = sandbox.Limits(**spec.get("limits", {}))
    protections += [f"limit: {name}" for name in sandbox.apply_limits(limits, root_mode)]
    if root_mode:
        sandbox.drop_privileges(int(spec["uid"]))
        protections.append(f"unprivileged user {spec['uid']}")
    # nothing of the harness copy or of the staff repository on the import path
    sys.path[:] = [str(home)] + [p for p in sys.path if _is_library(p)]
    sys.dont_write_bytecode = True
    return protections


def _is_library(path: str) -> bool:
    """The standard library and installed packages, nothing else."""
    import sysconfig

    paths = sysconfig.get_paths()
    roots = [paths.get("stdlib", ""), paths.get("platstdlib", "")]
    return bool(path) and (
        any(r and path.startswith(r) for r in roots) or "site-packages" in path or "dist-packages" in path
    )


def _serve(spec: dict[str, Any], channel: socket.socket, protections: list[str]) -> None:
    impl = Implementation("assignment", Path(spec["root"]))
    while True:
        try:
            request = wire.decode(framing.recv(channel))
        except (framing.ChannelClosed, OSError):
            return
        answer = _answer(impl, request, protections)
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            text = wire.encode(answer)
        except BaseException as exc:  # noqa: BLE001 - a returned object that cannot be read
            text = wire.encode({"id": request.get("id"), "outcome": {
                "status": "raised", "function": str(request.get("probe", "")),
                "exc_type": type(exc).__name__,
                "message": "the returned value could not be read", "where": ""}})
        try:
            framing.send(channel, text.encode())
        except framing.MessageTooLarge:
            framing.send(channel, wire.encode({"id": request.get("id"), "outcome": {
                "status": "raised", "function": str(request.get("probe", "")),
                "exc_type": "ValueError", "message": "the returned value is too large", "where": ""}}).encode())
        except OSError:
            return


def _answer(impl: Implementation, request: Any, protections: list[str]) -> dict[str, Any]:
    rid = request.get("id") if type(request) is dict else None
    op = request.get("op") if type(request) is dict else None
    if op == "hello":
        modules = {}
        for short in MODULES:
            try:
                impl.module(short)
                modules[short] = ""
            except Exception as exc:  # LoadError
                modules[short] = getattr(exc, "detail", str(exc))
        return {"id": rid, "outcome": {"status": "ok", "value": {
            "protections": protections, "modules": modules, "pid": os.getpid()}}}
    if op == "probe":
        args = request.get("args", [])
        return {"id": rid, "outcome": run_probe(impl, str(request.get("probe")), tuple(args))}
    return {"id": rid, "outcome": {"status": "harness_error", "function": "worker",
                                   "message": f"unknown request {op!r}"}}
