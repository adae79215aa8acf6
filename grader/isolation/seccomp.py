"""A seccomp filter for workers: the system calls a submission never needs and could misuse.

Namespaces and dropped privileges leave some kernel objects shared. The keyrings
belong to a user id, not to any namespace a worker can enter: two submissions graded
in one slot, or anyone on the machine with that id, could pass data through them,
and they outlive the batch. Every worker sees the same files (the Python
installation, the harness), and a lock or a watch on a file needs only a read-only
descriptor: two workers alive at once (a submission's own two, or two submissions
graded side by side) could signal through byte-range locks on one file, or through
the access events of another, or through which of its pages are in memory (what is
left of that channel, timing a read, is slow and one-way: a page read stays cached).
Sockets of any family but AF_UNIX reach past the network namespace on some machines
(AF_VSOCK talks to a virtual machine's host). New namespaces themselves: a worker
may make a user namespace of its own, where it is root: no escape known, but kernel
code no honest submission needs. So a worker refuses, for itself and every process
it starts:

    add_key, request_key, keyctl     the keyrings                          EPERM
    flock; fcntl's lock, lease and   signalling through a shared file      EPERM
     notify commands; inotify_*,      (its locks, its access events, which
     fanotify_*, mincore, fadvise64,   of its pages are in memory)
     preadv2, pwritev2, cachestat
    socket, socketpair of a family   the network past the namespace        EPERM
     other than AF_UNIX
    unshare, setns                   entering or making namespaces         EPERM
    ptrace, process_vm_readv/writev  other processes' memory               EPERM
    open_by_handle_at                files by handle, past the view        EPERM
    bpf, perf_event_open,            kernel code a submission never needs,
    userfaultfd, io_uring_*          where kernel exploits have been        EPERM
    clone with a CLONE_NEW* flag     a child in new namespaces             EPERM
    clone without CLONE_THREAD,      a new process: what it reads, maps    EPERM (threads are
     fork, vfork                      and holds is not the worker's, whose   plain)
                                      memory and reads the door watches
                                      from outside (get_batch's whole file)
    clone3                           (its flags are out of a filter's      ENOSYS: the C library
                                      reach)                                falls back to clone
    prctl(PR_SET_DUMPABLE)           owning its /proc files again: a        EPERM
                                      worker could reset the peak resident
                                      memory the door reads from outside
    any call of another ABI          (32-bit, x32: other numbers)           EPERM

Everything else is allowed. The filter is classic BPF, built here for this machine's
architecture (x86-64 or AArch64; elsewhere none, and the worker's report says so).
"""

from __future__ import annotations

import ctypes
import platform

from grader.isolation import sandbox

PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
RET_ALLOW, RET_ERRNO = 0x7FFF0000, 0x00050000
EPERM, ENOSYS = 1, 38
CLONE_NEW = 0x7E020000  # NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET
CLONE_THREAD = 0x00010000
X32_BIT = 0x40000000

# (audit architecture, its system call numbers)
ARCHES = {
    "x86_64": (0xC000003E, dict(add_key=248, request_key=249, keyctl=250, unshare=272, setns=308,
                                ptrace=101, process_vm_readv=310, process_vm_writev=311, bpf=321,
                                perf_event_open=298, userfaultfd=323, io_uring_setup=425, io_uring_enter=426,
                                io_uring_register=427, flock=73, inotify_init=253, inotify_init1=294,
                                inotify_add_watch=254, fanotify_init=300, fanotify_mark=301, mincore=27,
                                open_by_handle_at=304, fadvise64=221, preadv2=327, pwritev2=328,
                                cachestat=451, clone=56, clone3=435, fcntl=72, socket=41, socketpair=53, prctl=157,
                                fork=57, vfork=58)),
    "aarch64": (0xC00000B7, dict(add_key=217, request_key=218, keyctl=219, unshare=97, setns=268,
                                 ptrace=117, process_vm_readv=270, process_vm_writev=271, bpf=280,
                                 perf_event_open=241, userfaultfd=282, io_uring_setup=425, io_uring_enter=426,
                                 io_uring_register=427, flock=32, inotify_init1=26, inotify_add_watch=27,
                                 fanotify_init=262, fanotify_mark=263, mincore=232, open_by_handle_at=265,
                                 fadvise64=223, preadv2=286, pwritev2=287, cachestat=451, clone=220, clone3=435,
                                 fcntl=25, socket=198, socketpair=199, prctl=167)),
}
REFUSED = ("fork", "vfork", "add_key", "request_key", "keyctl", "unshare", "setns", "ptrace", "process_vm_readv",
           "process_vm_writev", "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter",
           "io_uring_register", "flock", "inotify_init", "inotify_init1", "inotify_add_watch", "fanotify_init",
           "fanotify_mark", "mincore", "fadvise64", "preadv2", "pwritev2", "cachestat", "open_by_handle_at")
# fcntl's commands that lock a file, lease it or watch a folder (F_GETLK is refused too: it tells
# where another process holds a lock); every other command (F_GETFD, F_SETFL, F_DUPFD, ...) is plain
F_LOCKS = {"F_GETLK": 5, "F_SETLK": 6, "F_SETLKW": 7, "F_OFD_GETLK": 36, "F_OFD_SETLK": 37, "F_OFD_SETLKW": 38,
           "F_SETLEASE": 1024, "F_GETLEASE": 1025, "F_NOTIFY": 1026}
AF_UNIX = 1
# prctl's command that makes a process dumpable again: its /proc/<pid> files (clear_refs, which resets the peak
# resident memory the door reads) would be its own once more. The worker made itself not dumpable before this
# filter; every other prctl command (thread names, PR_SET_PDEATHSIG) is plain
PR_SET_DUMPABLE = 4

# classic BPF: load a word of struct seccomp_data, compare, return
LD_ABS, JA, JEQ, JGE, JSET, RET = 0x20, 0x05, 0x15, 0x35, 0x45, 0x06
NR, ARCH, ARG0, ARG1 = 0, 4, 16, 24  # offsets in struct seccomp_data (an argument's low word, little-endian)


class _Instruction(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint)]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Instruction))]


def program(machine: str) -> list[tuple[int, int, int, int]] | None:
    """The filter for ``machine`` as (code, jt, jf, k) instructions; None for an architecture not known here."""
    if machine not in ARCHES:
        return None
    arch, nr = ARCHES[machine]
    # each jump names a label; resolved to offsets from the next instruction below
    code: list[tuple[int, str | int, str | int, int]] = [
        (LD_ABS, 0, 0, ARCH),
        (JEQ, 0, "deny", arch),
        (LD_ABS, 0, 0, NR),
    ]
    if machine == "x86_64":
        code.append((JGE, "deny", 0, X32_BIT))
    for name in REFUSED:
        if name in nr:  # AArch64 has only inotify_init1
            code.append((JEQ, "deny", 0, nr[name]))
    code += [
        (JEQ, "nosys", 0, nr["clone3"]),
        (JEQ, "clone", 0, nr["clone"]),
        (JEQ, "fcntl", 0, nr["fcntl"]),
        (JEQ, "socket", 0, nr["socket"]),
        (JEQ, "socket", 0, nr["socketpair"]),
        (JEQ, "prctl", 0, nr["prctl"]),
        (JA, 0, 0, "allow"),
    ]
    labels: dict[str, int] = {"clone": len(code)}
    code += [(LD_ABS, 0, 0, ARG0), (JSET, "deny", 0, CLONE_NEW), (JSET, "allow", "deny", CLONE_THREAD)]
    labels["fcntl"] = len(code)
    code.append((LD_ABS, 0, 0, ARG1))
    code += [(JEQ, "deny", 0, command) for command in F_LOCKS.values()]
    code.append((JA, 0, 0, "allow"))
    labels["socket"] = len(code)
    code += [(LD_ABS, 0, 0, ARG0), (JEQ, "allow", "deny", AF_UNIX)]
    labels["prctl"] = len(code)
    code += [(LD_ABS, 0, 0, ARG0), (JEQ, "deny", "allow", PR_SET_DUMPABLE)]
    labels.update(allow=len(code), deny=len(code) + 1, nosys=len(code) + 2)
    code += [(RET, 0, 0, RET_ALLOW), (RET, 0, 0, RET_ERRNO | EPERM), (RET, 0, 0, RET_ERRNO | ENOSYS)]

    def offset(target: str | int, at: int) -> int:
        return target if isinstance(target, int) else labels[target] - at - 1

    # a jump always (JA) takes its offset in k
    return [(c, 0, 0, offset(k, i)) if c == JA else (c, offset(jt, i), offset(jf, i), k)
            for i, (c, jt, jf, k) in enumerate(code)]


def install() -> str | None:
    """Filter this process and whatever it starts from now on; None if it took, else why not."""
    instructions = program(platform.machine())
    if instructions is None:
        return f"no seccomp filter for {platform.machine()}"
    sandbox.no_new_privileges()  # what an unprivileged process needs to install one
    table = (_Instruction * len(instructions))(*[_Instruction(*i) for i in instructions])
    prog = _Program(len(instructions), table)
    if sandbox.libc().prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        return f"the kernel refused a seccomp filter (errno {sandbox.errno_now()})"
    return None
