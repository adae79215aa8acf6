"""What a freshly forked worker does to itself before any student code runs.

As root (a grading machine, a Gradescope container), in this order:
  1. new namespaces where the kernel allows: network (no network at all),
     mount + PID (the worker sees only its own processes, so not the grader's
     command line or the other workers);
  2. resource limits: address space, CPU time, processes, file size, open files,
     no core dumps;
  3. drop to an unprivileged user id of its own (one per grading slot), with no
     supplementary groups: the staff files (reference, hidden tests, seed) are
     not readable by it, and it cannot signal or trace other slots' workers.
Not as root (a staff laptop): limits only, a process group of its own, and the
worker runs from a temporary copy of the submission with nothing of the staff
repository on its path or in its working folder. The grader reports which
protections were in force.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import resource
from dataclasses import asdict, dataclass

CLONE_NEWNS = 0x00020000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
MS_REC = 16384
MS_PRIVATE = 1 << 18
MS_NOSUID, MS_NODEV, MS_NOEXEC = 2, 4, 8
PR_SET_PDEATHSIG = 1


@dataclass(frozen=True)
class Limits:
    memory_mb: int = 3072  # address space allowed above the warm worker's own
    cpu_seconds: int = 600  # over the worker's whole life (calls are timed separately)
    processes: int = 64  # per worker user id (root mode only: root ignores RLIMIT_NPROC)
    file_mb: int = 64
    open_files: int = 256
    output_kb: int = 64  # captured stdout/stderr kept per submission
    flood_mb: int = 32  # more output than this kills the worker
    # CUDA reserves far more address space than it uses, so with a GPU an address-space
    # limit would break every kernel launch: the grader watches the worker's RSS instead
    watch_memory: bool = False

    def to_dict(self) -> dict:
        return asdict(self)


_libc = None


def libc():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    return _libc


def unshare(flags: int) -> bool:
    return libc().unshare(flags) == 0


def mount_private_proc() -> bool:
    """In a new mount + PID namespace: a /proc that shows only this namespace."""
    lib = libc()
    if lib.mount(None, b"/", None, MS_REC | MS_PRIVATE, None) != 0:
        return False
    return lib.mount(b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None) == 0


def die_with_parent() -> None:
    libc().prctl(PR_SET_PDEATHSIG, 9, 0, 0, 0)


def _vm_size() -> int:
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


def apply_limits(limits: Limits, root_mode: bool) -> list[str]:
    applied = []

    def setlimit(name: str, which: int, value: int) -> None:
        try:
            soft, hard = resource.getrlimit(which)
            if hard != resource.RLIM_INFINITY:
                value = min(value, hard)
            resource.setrlimit(which, (value, value))
            applied.append(name)
        except (ValueError, OSError):
            pass

    if not limits.watch_memory:
        setlimit("memory", resource.RLIMIT_AS, _vm_size() + limits.memory_mb * 2**20)
    setlimit("cpu", resource.RLIMIT_CPU, limits.cpu_seconds)
    setlimit("file size", resource.RLIMIT_FSIZE, limits.file_mb * 2**20)
    setlimit("open files", resource.RLIMIT_NOFILE, limits.open_files)
    setlimit("core", resource.RLIMIT_CORE, 0)
    if root_mode:
        setlimit("processes", resource.RLIMIT_NPROC, limits.processes)
    return applied


def drop_privileges(uid: int) -> None:
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    if os.getuid() != uid or os.geteuid() != uid:
        raise OSError("could not drop privileges")


def fresh_uid_base(slots: int) -> int:
    """User ids for this batch's workers, unlikely to be anyone else's.

    Each grading slot's worker runs as base + slot, and when a worker is replaced every
    process of its user id is killed: two batches on one machine (two Slurm tasks on a
    node) must not share ids, so each batch picks its own from a large range.
    """
    import secrets

    block = max(64, slots)
    return 200_000 + secrets.randbelow(1_000_000_000 // block) * block
