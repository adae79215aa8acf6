"""What a freshly forked worker does to itself before any student code runs: the kernel calls.

A worker is put in new namespaces, one of two ways, whichever the kernel allows first:

* **root** (a grading server, a Gradescope container): mount, PID, network, IPC and UTS
  namespaces directly; then, after building its view (``view.py``), it drops to an
  unprivileged user id of its own (one per grading slot and role), with no groups.
* **user namespace** (a staff laptop, or root told ``--same-user``): the same namespaces
  inside a new unprivileged user namespace where the grading user is root; after building
  its view it drops every capability, so it is an ordinary process in a box.

Either way it then sees only an allow-list of paths, has no network, sees only its own
processes, has its own System V IPC and /dev/shm, and its limits are set (``apply_limits``;
a cgroup for its whole process tree where the fork server could make one, ``cgroups.py``).
Where the kernel refuses both (``mode`` "none available"), it runs as the grading user
with resource limits only, and the grader says so loudly.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import platform
import resource
from dataclasses import asdict, dataclass

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
NAMESPACES = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_NOATIME, MS_NODIRATIME, MS_BIND = 32, 1024, 2048, 4096
MS_REC, MS_PRIVATE, MS_RELATIME = 1 << 14, 1 << 18, 1 << 21
MNT_DETACH = 2

PR_CAPBSET_DROP = 24
PR_SET_DUMPABLE = 4
PR_SET_SECUREBITS = 28
PR_SET_NO_NEW_PRIVS = 38
SECURE_ALL_LOCKED = 0x2F  # NOROOT, NO_SETUID_FIXUP, KEEP_CAPS_LOCKED ...: root inside never regains a capability
_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "arm64": 41, "riscv64": 41, "ppc64le": 203, "s390x": 217}

ROOT, USER_NAMESPACE, NONE = "root", "user namespace", "none available"


@dataclass(frozen=True)
class Limits:
    memory_mb: int = 3072  # memory allowed above the warm worker's own (its whole process tree where a cgroup is)
    cpu_seconds: int = 600  # over the worker's whole life (calls are timed separately)
    processes: int = 64  # per worker: tasks in its cgroup, or RLIMIT_NPROC of its own user
    cpus: float = 1.0  # a worker's share of the machine's CPUs, where a cgroup is (60 busy children get this)
    file_mb: int = 64
    open_files: int = 256
    scratch_mb: int = 256  # its private /tmp (a tmpfs: counts towards its memory too)
    shm_mb: int = 64  # its private /dev/shm
    output_kb: int = 64  # captured stdout/stderr kept per submission
    flood_mb: int = 32  # more output than this kills the worker
    # CUDA reserves far more address space than it uses, so with a GPU an address-space limit
    # (RLIMIT_AS) would break every kernel launch: none then, and memory is limited by the worker's
    # cgroup, or watched over its process tree where there is none (as it always is, besides)
    watch_memory: bool = False

    def to_dict(self) -> dict:
        return asdict(self)


# --------------------------------------------------------------------------- libc
_libc = None


def libc():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    return _libc


def errno_now() -> int:
    return ctypes.get_errno()


def _bytes(text: str | None) -> bytes | None:
    return None if text is None else os.fsencode(text)


def unshare(flags: int) -> bool:
    return libc().unshare(flags) == 0


def mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> bool:
    return libc().mount(_bytes(source), _bytes(target), _bytes(fstype), ctypes.c_ulong(flags), _bytes(data)) == 0


def umount2(target: str, flags: int) -> bool:
    return libc().umount2(_bytes(target), flags) == 0


def pivot_root(new_root: str, put_old: str) -> bool:
    lib = libc()
    number = _PIVOT_ROOT.get(platform.machine())
    if number is not None:  # most glibc versions have no wrapper: the raw call, by this machine's number
        return lib.syscall(ctypes.c_long(number), _bytes(new_root), _bytes(put_old)) == 0
    try:
        return lib.pivot_root(_bytes(new_root), _bytes(put_old)) == 0
    except AttributeError:
        ctypes.set_errno(38)  # ENOSYS
        return False


# --------------------------------------------------------------------------- namespaces
def enter_namespaces(as_root: bool, *, pid: bool = True) -> str:
    """New namespaces for this process's children (the caller forks next: its child is pid 1).

    Returns the mode that took: ``ROOT``, ``USER_NAMESPACE`` or ``NONE``. ``pid=False`` (root only,
    where CUDA will not start in a new PID namespace): the host's PID namespace is kept; the worker's
    own user id keeps its signals from every other process, and ``view.enter`` mounts a /proc that
    shows no other user's processes."""
    if as_root and unshare(NAMESPACES if pid else NAMESPACES & ~CLONE_NEWPID):
        return ROOT
    return _enter_user_namespace(NAMESPACES)


def unshare_pid_namespace(as_root: bool) -> bool:
    """New PID and mount namespaces (and, not as root, the user namespace that allows them) for this
    process's children, which may then mount a /proc of their own, as a worker does."""
    if as_root and unshare(CLONE_NEWPID | CLONE_NEWNS):
        return True
    return _enter_user_namespace(CLONE_NEWPID | CLONE_NEWNS) != NONE


def _enter_user_namespace(flags: int) -> str:
    uid, gid = os.geteuid(), os.getegid()
    if unshare(CLONE_NEWUSER | flags):
        # the grading user becomes root inside (the only id an unprivileged process may map)
        try:
            _write("/proc/self/setgroups", "deny")
            _write("/proc/self/uid_map", f"0 {uid} 1")
            _write("/proc/self/gid_map", f"0 {gid} 1")
        except OSError:
            return NONE  # a user namespace nobody can act in: no better than none (and no view)
        return USER_NAMESPACE
    return NONE


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def available_mode(as_root: bool) -> str:
    """Which mode a worker would get here, asked of a throwaway child (cheap: a fork)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            os.write(write, enter_namespaces(as_root).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as handle:
        mode = handle.read().decode() or NONE
    os.waitpid(pid, 0)
    return mode


# --------------------------------------------------------------------------- limits and privileges
def _vm_size() -> int:
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


def apply_limits(limits: Limits, *, processes: bool, address_space: bool) -> list[str]:
    """Per-process resource limits. ``processes``: whether RLIMIT_NPROC counts this worker's own
    processes only (its own user id, or its own user namespace) rather than the grading user's.
    ``address_space``: cap it (RLIMIT_AS) where nothing better limits memory: never with a GPU, whose
    driver reserves far more address space than it uses, nor inside a memory cgroup."""
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

    if address_space:
        setlimit("memory", resource.RLIMIT_AS, _vm_size() + limits.memory_mb * 2**20)
    setlimit("cpu", resource.RLIMIT_CPU, limits.cpu_seconds)
    setlimit("file size", resource.RLIMIT_FSIZE, limits.file_mb * 2**20)
    setlimit("open files", resource.RLIMIT_NOFILE, limits.open_files)
    setlimit("core", resource.RLIMIT_CORE, 0)
    if processes:
        setlimit("processes", resource.RLIMIT_NPROC, limits.processes)
    return [f"limit: {name}" for name in applied]


def drop_privileges(uid: int) -> None:
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    if os.getuid() != uid or os.geteuid() != uid:
        raise OSError("could not drop privileges")
    # not dumpable (a change of user id already makes it so, by default): its /proc/<pid> files belong to
    # root, so in the /proc it may write it cannot reset its own peak resident memory (clear_refs), which
    # the door reads; its threads still name themselves (task/<tid>/comm answers to its own thread group)
    if libc().prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
        raise OSError(errno_now(), "could not make the worker non-dumpable")
    no_new_privileges()


def drop_capabilities() -> None:
    """Root of a user namespace becomes an ordinary process: no capability now, none on exec."""
    lib = libc()
    cap = 0
    while lib.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0 or errno_now() != 22:  # EINVAL: past the last one
        cap += 1
        if cap > 255:
            break
    if lib.prctl(PR_SET_SECUREBITS, SECURE_ALL_LOCKED, 0, 0, 0) != 0:
        raise OSError(errno_now(), "could not lock the securebits")
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = (ctypes.c_uint32 * 6)()  # effective, permitted, inheritable: all zero, twice (64 bits)
    if lib.capset(header, data) != 0:
        raise OSError(errno_now(), "could not drop capabilities")
    no_new_privileges()


def no_new_privileges() -> None:
    libc().prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)


def fresh_uid_base(slots: int) -> int:
    """User ids for this batch's workers, unlikely to be anyone else's.

    Each grading slot's worker runs as base + slot, and when a worker is replaced every
    process of its user id is killed: two batches on one machine (two Slurm tasks on a
    node) must not share ids, so each batch picks its own from a large range.
    """
    import secrets

    block = max(64, slots)
    return 200_000 + secrets.randbelow(1_000_000_000 // block) * block


# --------------------------------------------------------------------------- what the grader says about it
def batch_notes(as_root: bool) -> tuple[list[str], str | None]:
    """The grader's statements about how this batch's workers are boxed in, and a warning to
    print loudly where the kernel gives no sandbox at all. Asked of the kernel, not assumed."""
    from grader.harness.devices import cuda_refuses_pid_namespace
    from grader.isolation import cgroups

    mode = available_mode(as_root)
    no_pid_namespace = cuda_refuses_pid_namespace()
    processes = ("its own IPC and /dev/shm, and a /proc that shows no other user's processes (CUDA does not start "
                 "in a PID namespace of its own on this machine)" if no_pid_namespace and mode == ROOT
                 else "its own process list, IPC and /dev/shm")
    seen = ("each sees only an allow-list of paths, read-only (the Python installation and system libraries, "
            f"the public harness, its own copy of the submission) and a private /tmp (noexec); it imports only its "
            f"own copy's modules, the libraries and the harness; no network; {processes}")
    notes = []
    if mode == ROOT:
        notes.append(f"workers ran in namespaces of their own as unprivileged users: {seen}")
    elif mode == USER_NAMESPACE:
        notes.append(f"workers ran in user namespaces of their own, with no capabilities: {seen}")
        if no_pid_namespace:
            notes.append("WARNING: CUDA does not start in a PID namespace of its own on this machine, and workers "
                         "that are not root need one: every cuda test fails with a harness error; grade the GPU "
                         "pass as root, without --same-user")
    version = cgroups.available()
    if version:
        notes.append(f"memory, processes and CPU were limited per worker process tree (cgroup v{version})")
    else:
        notes.append("no cgroup could be made: the grader watched the memory of each worker's process tree; "
                     "CPU was not shared fairly between workers")
    if mode != NONE:
        return notes, None
    if as_root:
        who = ("as unprivileged users (the staff files are root-only) with resource limits only: they could read "
               "every world-readable file on this machine (a copy of the staff files too), see every process")
    else:
        user = _user_name()
        who = (f"as {user} with resource limits only: they could read every file {user} can, the staff "
               "repository included, see every process")
    warning = (f"NO SANDBOX: the kernel refused namespaces (user namespaces turned off? a container without "
               f"CAP_SYS_ADMIN?), so workers ran {who} and reach the network. Grade real submissions where "
               "namespaces work (see README, 'Isolation').")
    return [f"WARNING: {warning}"] + notes, warning


def _user_name() -> str:
    try:
        import pwd

        return pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError):
        return f"user id {os.geteuid()}"
