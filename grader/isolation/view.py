"""What a worker sees of the filesystem: an allow-list, built in its own mount namespace.

The fork server decides once which paths a worker may see (``allowed_paths``): the
Python installation and its site-packages, the shared libraries they load, and its
own copy of the public harness. Each worker then builds a fresh root on a small tmpfs
(``enter``), with

    <the Python installation, site-packages, library folders>   read-only, at their own paths
    <the harness copy> (a clean worker: the trusted copy too)   read-only, at their own paths
    /submission/assignment   read-only: this worker's own copy of the submission
    /tmp                     a private tmpfs of ``Limits.scratch_mb`` (also $HOME and the working folder), noexec
    /dev                     null, zero, full, random, urandom (and nvidia* on a GPU machine), a private /dev/shm
                             (noexec)
    /proc                    its own (it is pid 1 of its own PID namespace: it sees its own processes only; where
                             it keeps the host's, for CUDA, a /proc that hides other users' processes); read-only,
                             but for a worker with a user id of its own, whose threads may name themselves (CUDA)
    /sys                     read-only, on a GPU machine only (the CUDA driver reads it)
    /etc/passwd, /etc/group  written for it: root and its own user (``WORKER_USER``), nothing of the host's

and moves into it with ``pivot_root``, detaching the old root: every other path (the
staff repository, a second checkout of it, other workers' folders, the grader's
temporary files, the CUDA lock) is absent, not merely unreadable. The root itself is
read-only, so the only writable places are the two tmpfs mounts, which vanish with the
worker's mount namespace when it is replaced.

The same code runs as real root (a grading server) and as root of an unprivileged
user namespace (a staff laptop): both may mount in a mount namespace they own.

Why these calls and not bubblewrap: ``bwrap`` builds the same view but must exec a new
program in it, so every worker would start a fresh interpreter and import torch. Measured
here (2 cores): a worker forked from the warm fork server, view included, answers its first
request 0.05 s after it is asked for; ``bwrap`` itself takes 0.01 s, but a fresh ``python
-I`` importing what the fork server preloads takes 5.1-5.4 s (the same with or without
``bwrap``), paid again for every worker that is replaced.
"""

from __future__ import annotations

import glob
import os
import sys
import sysconfig
from pathlib import Path

from grader.isolation import sandbox

HOME = "/submission"  # where a worker finds its own copy of the submission
SCRATCH = "/tmp"
DEVICES = ("null", "zero", "full", "random", "urandom")
SYSTEM_LIBRARIES = ("/usr/lib", "/usr/lib64", "/usr/lib32", "/lib", "/lib64", "/lib32", "/usr/local/lib")
SYSTEM_FILES = ("/etc/ld.so.cache",)  # how the dynamic loader finds a library by name (libcuda.so.1)
WORKER_USER = "student"  # the name a worker's user id has in its own /etc/passwd (and in $USER)

# statvfs f_flag bits -> mount flags a read-only remount must keep (the kernel refuses to clear
# flags it locked on a mount inherited from a more privileged namespace)
_KEEP_FLAGS = {1: sandbox.MS_RDONLY, 2: sandbox.MS_NOSUID, 4: sandbox.MS_NODEV, 8: sandbox.MS_NOEXEC,
               1024: sandbox.MS_NOATIME, 2048: sandbox.MS_NODIRATIME, 4096: sandbox.MS_RELATIME}


# --------------------------------------------------------------------------- what may be seen
def allowed_paths(forbidden: Path | None) -> list[str]:
    """The paths every worker sees read-only, decided once by the fork server.

    ``forbidden`` is the staff repository: no path that holds it is ever allowed, and a path
    inside it only if it is an installed-packages folder (a virtual environment kept in the
    checkout), never the repository itself."""
    wanted = _python_paths() + _library_folders() + list(SYSTEM_FILES)
    kept: list[str] = []
    for path in wanted:
        if not os.path.isabs(path) or not os.path.exists(path) or not _allowed(path, forbidden):
            continue
        kept.append(os.path.normpath(path))
    # a folder inside another kept one comes with it (a symlink to a kept folder stays: it is made)
    unique = sorted(set(kept), key=len)
    return [p for p in unique if os.path.islink(p) or not any(_inside(p, q) and p != q for q in unique)]


def _python_paths() -> list[str]:
    """The interpreter's own library folders, of the environment and of its base installation."""
    paths = []
    for scheme_vars in ({}, {"base": sys.base_prefix, "platbase": sys.base_exec_prefix}):
        found = sysconfig.get_paths(vars=scheme_vars) if scheme_vars else sysconfig.get_paths()
        paths += [found.get(k, "") for k in ("stdlib", "platstdlib", "purelib", "platlib")]
    paths.append(sysconfig.get_config_var("LIBDIR") or "")  # libpython, for an interpreter that links it
    paths += [p for p in sys.path if _is_packages(p)]  # what .pth files added, e.g. a user site
    return paths


def _library_folders() -> list[str]:
    """Where the dynamic loader looks: the system's folders, ld.so.conf's, and LD_LIBRARY_PATH's."""
    folders = list(SYSTEM_LIBRARIES)
    for conf in ["/etc/ld.so.conf", *sorted(glob.glob("/etc/ld.so.conf.d/*.conf"))]:
        try:
            lines = Path(conf).read_text().splitlines()
        except OSError:
            continue
        folders += [line.split("#")[0].strip() for line in lines
                    if line.strip().startswith("/")]
    folders += os.environ.get("LD_LIBRARY_PATH", "").split(":")
    return [f for f in folders if f]


def _is_packages(path: str) -> bool:
    return any(part in ("site-packages", "dist-packages") for part in Path(path).parts)


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _allowed(path: str, forbidden: Path | None) -> bool:
    real = os.path.realpath(path)
    if "/" in (os.path.normpath(path), real):
        return False
    if forbidden is None:
        return True
    repo = os.path.realpath(forbidden)
    for candidate in (os.path.normpath(path), real):
        if _inside(repo, candidate):  # the repository, or a folder that holds it
            return False
        if _inside(candidate, repo) and not _is_packages(candidate):
            return False
    return True


# --------------------------------------------------------------------------- building it
class ViewError(OSError):
    """A step of building the view failed (the worker then runs without it, and says so)."""


def enter(new_root: str, read_only: list[str], home: str | None, scratch_mb: int, shm_mb: int, *,
          own_pids: bool = True, writable_proc: bool = False, uid: int = 0) -> list[str]:
    """Build the allow-listed root at ``new_root`` (an empty folder) and move into it.

    ``home``: the folder holding this worker's ``assignment/`` copy (None: a clean worker).
    Runs as (namespace) root, in a fresh mount namespace, as pid 1 of a fresh PID namespace (``own_pids``;
    else in the host's, where CUDA refuses a new one: its /proc then hides other users' processes).
    Returns what could not be had without harm (a /proc of its own); raises ``ViewError`` on any
    other failure: the caller then runs the worker without the view, and says so.

    ``writable_proc``: for a worker that will drop to a user id of its own and be non-dumpable
    (``sandbox.drop_privileges``). Its /proc is then not read-only: its threads may name themselves
    (task/<tid>/comm), without which CUDA's driver (570 and later) fails to start ("Error 304"), while
    its own per-process files, clear_refs among them, belong to root. Any other worker's /proc is
    read-only (it could otherwise reset the peak resident memory the door reads).

    ``uid``: the user id the worker will run as (0: root of its user namespace), named in its /etc/passwd."""
    _mount(None, "/", None, sandbox.MS_REC | sandbox.MS_PRIVATE)  # nothing we do here leaks out
    _mount("tmpfs", new_root, "tmpfs", sandbox.MS_NOSUID | sandbox.MS_NODEV, "size=4m,mode=0755")
    # the scratch tmpfs first: an allowed path under /tmp (the harness copy, a CI checkout's venv)
    # is then bound on top of it, visible, instead of hidden under it
    _tmpfs(new_root, SCRATCH, scratch_mb)
    bound: list[str] = []
    for path in sorted(read_only, key=lambda p: len(os.path.realpath(p))):
        _bind(new_root, path, bound)
    if home is not None:
        _bind_at(new_root, os.path.join(home, "assignment"), HOME + "/assignment", read_only=True)
    _devices(new_root, shm_mb)
    _accounts(new_root, uid)
    missing = []
    os.makedirs(new_root + "/proc", exist_ok=True)
    # a user namespace may not mount /proc where the real one has parts hidden (a container): none then.
    # The door's figures read from it must stay the kernel's (a process may reset its own peak resident
    # memory through clear_refs, where the door resets it): read-only, or writable by its threads' names alone
    proc_flags = sandbox.MS_NOSUID | sandbox.MS_NODEV | sandbox.MS_NOEXEC | (0 if writable_proc else sandbox.MS_RDONLY)
    if not own_pids and not _proc_options_per_mount():
        missing.append("/proc (this kernel, older than 5.8, shares /proc's options between mounts: a /proc hiding "
                       "other users' processes would hide them from the whole machine; the worker has none)")
    elif not sandbox.mount("proc", new_root + "/proc", "proc", proc_flags, None if own_pids else "hidepid=2"):
        missing.append(f"/proc ({os.strerror(sandbox.errno_now())}: the worker has none)")
    else:
        missing += _kernel_settings_read_only(new_root + "/proc")
    if glob.glob("/dev/nvidia*"):  # the CUDA driver reads its devices' sysfs entries
        _bind(new_root, "/sys", [])
    _pivot(new_root)
    _mount(None, "/", None, sandbox.MS_REMOUNT | sandbox.MS_BIND | sandbox.MS_RDONLY | sandbox.MS_NOSUID
           | sandbox.MS_NODEV)
    os.chdir(SCRATCH)
    return missing


def _proc_options_per_mount() -> bool:
    """Linux 5.8 and later: each mount of proc has its own options (hidepid), not its PID namespace's."""
    release = os.uname().release.split("-")[0].split(".")
    try:
        return (int(release[0]), int(release[1])) >= (5, 8)
    except (IndexError, ValueError):
        return False


# What of /proc sets the kernel up, not the process: a worker that is root in its user namespace and
# host root outside it (a root grader told --same-user) passes the owner's write check on these files
# with no capability at all (kernel.core_pattern runs a program as root). Made read-only, as containers do.
PROC_READ_ONLY = ("sys", "sysrq-trigger", "irq", "bus", "fs")


def _kernel_settings_read_only(proc: str) -> list[str]:
    """Bind each of ``PROC_READ_ONLY`` onto itself read-only; what could not be, said (and /proc dropped)."""
    for name in PROC_READ_ONLY:
        path = f"{proc}/{name}"
        if not os.path.exists(path):
            continue
        flags = sandbox.MS_BIND | sandbox.MS_REMOUNT | sandbox.MS_RDONLY | sandbox.MS_NOSUID | sandbox.MS_NODEV \
            | sandbox.MS_NOEXEC
        if not (sandbox.mount(path, path, None, sandbox.MS_BIND | sandbox.MS_REC)
                and sandbox.mount(None, path, None, flags)):
            why = os.strerror(sandbox.errno_now())
            sandbox.umount2(proc, 2)  # MNT_DETACH: no /proc rather than one whose settings can be written
            return [f"/proc ({why} making {name} read-only: the worker has none)"]
    return []


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    if not sandbox.mount(source, target, fstype, flags, data):
        raise ViewError(sandbox.errno_now(), f"mount {source or ''} on {target}: {os.strerror(sandbox.errno_now())}")


def _bind(new_root: str, path: str, bound: list[str]) -> None:
    """Bind ``path`` read-only at the same path inside (unless a folder holding it already is),
    with the symlinks on the way to it made again inside (/lib -> usr/lib)."""
    real = os.path.realpath(path)
    _mirror_links(new_root, os.path.normpath(path))
    if not any(_inside(real, done) for done in bound):
        _bind_at(new_root, real, real, read_only=True)
        bound.append(real)


def _mirror_links(new_root: str, path: str, depth: int = 0) -> None:
    """Make inside the first symlink met on the way to ``path``, then follow it likewise."""
    parts = Path(path).parts
    current = "/"
    for i, part in enumerate(parts[1:], start=1):
        current = os.path.join(current, part)
        if os.path.islink(current) and depth < 40:
            target = os.readlink(current)
            where = new_root + current
            if not os.path.lexists(where):
                os.makedirs(os.path.dirname(where), exist_ok=True)
                os.symlink(target, where)
            rest = os.path.join(os.path.dirname(current), target, *parts[i + 1:])
            _mirror_links(new_root, os.path.normpath(rest), depth + 1)
            return


def _bind_at(new_root: str, source: str, inside: str, *, read_only: bool, device: bool = False) -> None:
    target = new_root + inside
    if os.path.isdir(source):
        os.makedirs(target, exist_ok=True)
    elif not os.path.exists(target):
        os.makedirs(os.path.dirname(target), exist_ok=True)
        open(target, "a").close()  # a file is bound onto a file
    # not recursive: what is mounted below a library folder stays out; but a user namespace may only
    # bind a tree whose inherited submounts come along (EINVAL otherwise)
    if not sandbox.mount(source, target, None, sandbox.MS_BIND):
        _mount(source, target, None, sandbox.MS_BIND | sandbox.MS_REC)
    if read_only:
        flags = sandbox.MS_BIND | sandbox.MS_REMOUNT | sandbox.MS_RDONLY | _locked_flags(target)
        if not device:
            flags |= sandbox.MS_NOSUID | sandbox.MS_NODEV
        _mount(None, target, None, flags)


def _locked_flags(target: str) -> int:
    bits = os.statvfs(target).f_flag
    return sum(flag for bit, flag in _KEEP_FLAGS.items() if bits & bit)


def _tmpfs(new_root: str, inside: str, size_mb: int) -> None:
    target = new_root + inside
    os.makedirs(target, exist_ok=True)
    # noexec: nothing written while the submission runs is run (a program) or mapped as code (a library)
    _mount("tmpfs", target, "tmpfs", sandbox.MS_NOSUID | sandbox.MS_NODEV | sandbox.MS_NOEXEC,
           f"size={max(1, size_mb)}m,mode=1777")


def _accounts(new_root: str, uid: int) -> None:
    """An /etc/passwd and /etc/group naming root and the worker's own user, written on the new root (read-only
    once moved into): ``pwd.getpwuid(os.getuid())`` in a checkpoint's metadata answers as at home, instead of
    raising ``KeyError`` for a user id the host never named, and nothing of the host's accounts shows."""
    os.makedirs(new_root + "/etc", exist_ok=True)
    users = {0: "root", uid: WORKER_USER} if uid else {0: "root"}
    with open(new_root + "/etc/passwd", "w") as passwd:
        passwd.writelines(f"{name}:x:{id_}:{id_}:{name}:{SCRATCH}:/usr/sbin/nologin\n" for id_, name in users.items())
    with open(new_root + "/etc/group", "w") as group:
        group.writelines(f"{name}:x:{id_}:\n" for id_, name in users.items())


def _devices(new_root: str, shm_mb: int) -> None:
    """A /dev of the harmless devices (and the GPU's), bound from the real one: no mknod needed. Read-only
    mounts: a device is still opened for writing, mapped and driven through a read-only mount (the kernel
    checks a mount's flag for regular files, not for devices), but its node's owner, mode and times cannot
    be changed through one, and a worker that is host root in its user namespace (a root grader told
    --same-user) passes the owner's check on the host's nodes: chmod 000 /dev/null would last until a reboot."""
    dev = new_root + "/dev"
    os.makedirs(dev, exist_ok=True)
    _mount("tmpfs", dev, "tmpfs", sandbox.MS_NOSUID, "size=64k,mode=0755")
    nodes = [f"/dev/{name}" for name in DEVICES] + sorted(glob.glob("/dev/nvidia*"))
    for node in nodes:
        if os.path.exists(node):
            _bind_at(new_root, node, node, read_only=True, device=True)
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1"),
                         ("stderr", "/proc/self/fd/2")):
        os.symlink(target, f"{dev}/{name}")
    _tmpfs(new_root, "/dev/shm", shm_mb)


def _pivot(new_root: str) -> None:
    """Make ``new_root`` the root and detach the old one (pivot_root(".", ".") stacks the old root on
    the new one; unmounting "." then drops it, with no folder needed to park it in)."""
    os.chdir(new_root)
    if not sandbox.pivot_root(".", "."):
        raise ViewError(sandbox.errno_now(), f"pivot_root: {os.strerror(sandbox.errno_now())}")
    if not sandbox.umount2(".", sandbox.MNT_DETACH):
        raise ViewError(sandbox.errno_now(), f"detaching the old root: {os.strerror(sandbox.errno_now())}")
    os.chdir("/")
