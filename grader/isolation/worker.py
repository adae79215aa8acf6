"""The worker: one sandboxed process that imports one submission (or none) and answers probes.

It is forked from the fork server (``forkserver.py``), sandboxes itself
(``sandbox.py``) and reports, before any submission code runs, which
protections took: that report goes to the fork server, which hands it to the
grader with the worker's pid, so nothing the submission does later can rewrite
it. Then it serves requests on its channel until the channel closes:

    {"id": 1, "op": "hello"}                                  -> import status of each module
    {"id": 2, "op": "probe", "probe": ..., "args": [...], ...} -> an outcome (grader.harness.runner)

A *clean* worker imports no submission at all: it answers the judges that need
a process no submission ever ran in (the harness's own measurements). An
*alone* worker imports one module of the submission (``spec["alone"]``) and
only what that module imports itself.

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

from grader.harness import devices, text_as_code, wire
from grader.harness.impl import Implementation
from grader.harness.runner import Runner
from grader.isolation import cgroups, framing, import_origins, sandbox, seccomp, view


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
        home = _sandbox(spec, report_fd)
        _serve(spec, channel, home)
    except BaseException as exc:  # noqa: BLE001 - a worker must never return into the fork server
        try:
            os.write(2, f"worker failed to start: {type(exc).__name__}: {exc}\n".encode())
        finally:
            os._exit(70)
    os._exit(0)


def _report(fd: int, **fields: Any) -> None:
    os.write(fd, (json.dumps(fields) + "\n").encode())


KEEP_ENVIRONMENT = ("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "PYTORCH_CUDA_ALLOC_CONF", "NVIDIA_VISIBLE_DEVICES",
                    "ASSIGNMENT_CUDA", "PYTORCH_NVML_BASED_CUDA_CHECK")


class _Box:
    """What took while boxing this process in, in the grader's words, for the report."""

    def __init__(self) -> None:
        self.protections: list[str] = []
        self.missing: list[str] = []


def _sandbox(spec: dict[str, Any], report_fd: int) -> Path:
    """Box this process in; report what took, before any submission code runs. Returns the folder that
    holds the submission's ``assignment/`` as this process now sees it."""
    limits = sandbox.Limits(**spec.get("limits", {}))
    box = _Box()
    _join_cgroup(spec, limits, box)
    as_root = os.geteuid() == 0 and spec.get("uid") is not None
    own_pids = not (as_root and devices.cuda_refuses_pid_namespace())
    mode = sandbox.enter_namespaces(as_root, pid=own_pids)
    own_pids = own_pids or mode != sandbox.ROOT
    fields: dict[str, Any] = {}
    if mode != sandbox.NONE:
        child = os.fork()
        if child:  # the real worker by its pid out here (in there it is pid 1), then leave
            _report(report_fd, pid=child)
            os._exit(0)
        box.protections += ["no network", "own process list" if own_pids else "no other user's processes in its "
                            "/proc (CUDA will not start in a PID namespace of its own here)", "own IPC and /dev/shm"]
    else:
        fields["pid"] = os.getpid()
        box.missing.append("namespaces (the kernel refused them): it could read every file the grading user can, "
                           "see every process and reach the network")
    if spec.get("clean"):  # the judges' code: only a clean worker ever sees it
        import grader

        grader.__path__.append(str(Path(spec["trusted"]) / "grader"))
        import grader.judges  # noqa: F401
    home, scratch = _enter_view(spec, limits, mode, box, own_pids)
    _clean_environment(scratch)
    box.protections += sandbox.apply_limits(limits, processes=mode != sandbox.NONE or as_root,
                                            address_space=not limits.watch_memory and not spec.get("cgroup"))
    if mode == sandbox.USER_NAMESPACE:  # root in there: an ordinary process from now on
        sandbox.drop_capabilities()
        box.protections.append("no capabilities")
    elif as_root:
        sandbox.drop_privileges(int(spec["uid"]))
        box.protections.append(f"unprivileged user {spec['uid']}")
    refused = seccomp.install()  # last: what it refuses, nothing of the setup above needs any more
    if refused:
        box.missing.append(f"{refused}: it could use the kernel's keyrings (shared by its user id), lock or watch "
                           "the files every worker sees, open sockets past its network namespace and make namespaces")
    else:
        box.protections.append("no keyrings, no locks or watches on shared files, no sockets but AF_UNIX, "
                               "no new namespaces (seccomp)")
    # nothing of the harness copy or of the staff repository on the import path
    sys.path[:] = [str(home)] + [p for p in sys.path if _is_library(p)]
    sys.dont_write_bytecode = True
    # from here on, modules come from the submission's staged files, the libraries and the harness only
    import grader

    import_origins.install([str(home / "assignment"), *sys.path[1:], *grader.__path__])
    fields.update(mode=mode, protections=box.protections, missing=box.missing)
    _report(report_fd, **fields)  # before any submission code runs
    os.close(report_fd)
    return home


def _join_cgroup(spec: dict[str, Any], limits: sandbox.Limits, box: _Box) -> None:
    """First thing: every process this worker starts from here on is counted in its group."""
    groups = spec.get("cgroup") or {}
    if groups:
        cgroups.join(groups)
        box.protections.append(f"memory {limits.memory_mb} MB, {limits.processes} processes and {limits.cpus:g} CPU "
                               "for its whole process tree (cgroup)")
    else:
        box.missing.append("a cgroup (memory is watched over its process tree instead; CPU is not shared fairly)")


def _enter_view(spec: dict[str, Any], limits: sandbox.Limits, mode: str, box: _Box,
                own_pids: bool) -> tuple[Path, Path]:
    """Move into the allow-listed root where a mount namespace allows; returns (home, scratch)."""
    host_home = Path(spec["root"])
    if mode != sandbox.NONE:
        clean = bool(spec.get("clean"))
        shown = list(spec.get("view") or []) + [spec["harness"]] + ([spec["trusted"]] if clean else [])
        try:
            box.missing += view.enter(str(host_home / "view"), shown, None if clean else str(host_home),
                                      limits.scratch_mb, limits.shm_mb, own_pids=own_pids,
                                      writable_proc=mode == sandbox.ROOT,  # it drops to a user id of its own
                                      uid=int(spec["uid"]) if mode == sandbox.ROOT and spec.get("uid") is not None
                                      else 0)
            box.protections.append(f"only an allow-list of paths visible, read-only; its own /tmp "
                                   f"({limits.scratch_mb} MB)")
            return Path(view.HOME), Path(view.SCRATCH)
        except OSError as exc:  # a grader's problem, not the student's: graded, and said loudly
            box.missing.append(f"the filesystem allow-list ({exc}): it could read every file its user can")
    os.chdir(host_home)
    return host_home, host_home / "scratch"


def _clean_environment(scratch: Path) -> None:
    """Nothing of the grader's environment but what CUDA needs to pick the same device."""
    keep = {k: os.environ[k] for k in KEEP_ENVIRONMENT if k in os.environ}
    os.environ.clear()
    os.environ.update({
        "HOME": str(scratch), "TMPDIR": str(scratch), "PATH": "/usr/bin:/bin",
        "OMP_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1", "LANG": "C.UTF-8",
        # a user name of its own (its /etc/passwd names it too): getpass.getuser() in a checkpoint's metadata
        # works as at home, and tells nothing of the grader's
        "USER": view.WORKER_USER, "LOGNAME": view.WORKER_USER, **keep,
    })
    import tempfile

    tempfile.tempdir = str(scratch)


def _is_library(path: str) -> bool:
    """The standard library and installed packages, nothing else."""
    import sysconfig

    paths = sysconfig.get_paths()
    roots = [paths.get("stdlib", ""), paths.get("platstdlib", "")]
    return bool(path) and (
        any(r and path.startswith(r) for r in roots) or "site-packages" in path or "dist-packages" in path
    )


def _serve(spec: dict[str, Any], channel: socket.socket, home: Path) -> None:
    clean = bool(spec.get("clean"))
    alone = spec.get("alone") if type(spec.get("alone")) is str else None
    if not clean:  # from before the submission's first import: no text becomes code here (README)
        text_as_code.install(everywhere=True)
    runner = Runner(None if clean else Implementation("assignment", home, only=alone), in_worker=True)
    while True:
        try:
            request = wire.unpack(framing.recv(channel))
        except (framing.ChannelClosed, OSError):
            return
        answer = _answer(runner, request, clean)
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            message = wire.pack(answer)
        except BaseException as exc:  # noqa: BLE001 - a returned object that cannot be read
            message = wire.pack({"id": request.get("id"), "outcome": {
                "status": "unsent", "function": str(request.get("subject", "")),
                "message": f"it cannot be read as plain data ({type(exc).__name__})"}})
        try:
            framing.send(channel, message)
        except framing.MessageTooLarge:
            framing.send(channel, wire.pack({"id": request.get("id"), "outcome": {
                "status": "unsent", "function": str(request.get("subject", "")),
                "message": f"it is larger than {framing.MAX_MESSAGE // 2**20} MB"}}))
        except OSError:
            return


def _answer(runner: Runner, request: Any, clean: bool) -> dict[str, Any]:
    rid = request.get("id") if type(request) is dict else None
    op = request.get("op") if type(request) is dict else None
    if op == "hello":
        seconds = request.get("seconds")
        runner.import_all(float(seconds) if type(seconds) in (int, float) and seconds > 0 else None)
        return {"id": rid, "outcome": {"status": "ok", "value": None}}
    if op == "probe":
        return {"id": rid, "outcome": runner.answer(request, judges=clean)}
    return {"id": rid, "outcome": {"status": "harness_error", "function": "worker",
                                   "message": f"unknown request {op!r}"}}
