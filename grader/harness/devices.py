"""Is there a CUDA device this run can really use?

``torch.cuda.is_available()`` answers from the CUDA runtime, which a process that
forks must not start; with ``PYTORCH_NVML_BASED_CUDA_CHECK`` it answers from NVML
instead, which also says yes for a GPU that CUDA cannot use (a CPU-only torch on
a GPU machine, a broken driver). So the grader asks once, in a fresh process that
really allocates on the device, and tells every process it starts the answer in
``ASSIGNMENT_CUDA``.

The same fresh process first tries the device from a child in new PID and mount
namespaces with a /proc of its own, as a sandboxed worker has. On one H200 (a Firecracker
VM, driver 580) CUDA failed in every new PID namespace tried ("Error 304: OS call failed or
operation not supported on this OS"), each time with a /proc that was the host's or
read-only; drivers 570 and later are reported to fail so where a thread cannot name itself
through /proc/self/task/<tid>/comm, which both of those prevent. Workers graded as root now
get a /proc they may write (``grader/isolation/view.py``); should CUDA still refuse a PID
namespace, the answer goes down in ``ASSIGNMENT_CUDA_PID_NAMESPACE`` ("0"), and workers
graded as root then keep the host's (``grader/isolation/sandbox.py`` says what replaces it).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ENV = "ASSIGNMENT_CUDA"
PID_NAMESPACE_ENV = "ASSIGNMENT_CUDA_PID_NAMESPACE"
ROOT = Path(__file__).resolve().parents[2]
# argv[1]: the folder that holds the grader. Prints "<usable here> <usable in a new PID namespace>", each 0 or 1
# ("-" where no PID namespace could be made). The child goes first: a process that has started CUDA
# cannot fork children that use it.
CHECK = """
import os, sys
import torch  # once, before the fork (importing starts no CUDA)
sys.path.insert(0, sys.argv[1])
def use():
    torch.zeros(1, device="cuda").add_(1)
    torch.cuda.synchronize()
def in_new_pid_namespace():
    from grader.isolation import sandbox
    read, write = os.pipe()
    if os.fork() == 0:
        answer = "-"
        try:
            if sandbox.unshare_pid_namespace(os.geteuid() == 0):
                pid = os.fork()
                if pid == 0:  # pid 1 of its namespace, with a /proc of that namespace, as a worker
                    if not (sandbox.mount(None, "/", None, sandbox.MS_REC | sandbox.MS_PRIVATE)
                            and sandbox.mount("proc", "/proc", "proc",
                                              sandbox.MS_NOSUID | sandbox.MS_NODEV | sandbox.MS_NOEXEC)):
                        os._exit(2)
                    try:
                        use()
                    except BaseException:
                        os._exit(1)
                    os._exit(0)
                status = os.waitpid(pid, 0)[1]
                answer = {0: "1", 1: "0"}.get(os.waitstatus_to_exitcode(status), "-")
        finally:
            os.write(write, answer.encode())
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as handle:
        return handle.read() or "-"
in_namespace = in_new_pid_namespace()
try:
    use()
    here = "1"
except BaseException:
    here = "0"
print(here, in_namespace)
"""


def _told() -> bool | None:
    """What a parent already decided (``ASSIGNMENT_CUDA``), if it did."""
    told = os.environ.get(ENV)
    return told == "1" if told in ("0", "1") else None


def cuda_usable() -> bool:
    told = _told()
    if told is not None:
        return told
    if os.environ.get("PYTORCH_NVML_BASED_CUDA_CHECK"):  # this process must not start CUDA: ask another
        return check_in_fresh_process()[0]
    import torch

    return torch.cuda.is_available()


def check_in_fresh_process(timeout: float = 180.0) -> tuple[bool, bool]:
    """Whether a fresh interpreter can allocate and compute on the CUDA device, and whether a child of
    it in a new PID namespace can (True where no such namespace could be made: no worker gets one)."""
    env = {k: v for k, v in os.environ.items() if k not in (ENV, PID_NAMESPACE_ENV, "PYTORCH_NVML_BASED_CUDA_CHECK")}
    try:
        done = subprocess.run([sys.executable, "-c", CHECK, str(ROOT)], env=env, capture_output=True, text=True,
                              timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        return False, True
    here, _, in_namespace = done.stdout.strip().partition(" ")
    return done.returncode == 0 and here == "1", in_namespace != "0"


def decide_for_children() -> bool:
    """Ask once, and tell every process started from here (``ASSIGNMENT_CUDA``).

    Called by a process that forks (the grader's), which must never start CUDA itself, and
    ``torch.cuda.is_available()`` starts it (without ``PYTORCH_NVML_BASED_CUDA_CHECK``, and with
    it whenever NVML fails). A torch built without CUDA is answered here; any other, by a fresh
    process."""
    usable = _told()
    if usable is None:
        import torch

        usable, in_pid_namespace = check_in_fresh_process() if torch.backends.cuda.is_built() else (False, True)
        os.environ[PID_NAMESPACE_ENV] = "1" if in_pid_namespace else "0"
    os.environ[ENV] = "1" if usable else "0"
    return usable


def cuda_refuses_pid_namespace() -> bool:
    """Whether the device is used and CUDA was found not to start in a new PID namespace."""
    return _told() is True and os.environ.get(PID_NAMESPACE_ENV) == "0"
