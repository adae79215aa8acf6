"""A seccomp filter for workers: the system calls a submission never needs and could misuse.

Namespaces and dropped privileges leave two kernel objects shared: the keyrings (a
user's keyring belongs to its user id, not to any namespace a worker can enter, so
two submissions graded in one slot, or anyone on the machine with that id, could
pass data through it, and it outlives the batch), and new namespaces themselves (a
worker may make a user namespace of its own, where it is root: no escape known,
but kernel code no honest submission needs). So a worker refuses, for itself and
every process it starts:

    add_key, request_key, keyctl     the keyrings                          EPERM
    unshare, setns                   entering or making namespaces         EPERM
    ptrace, process_vm_readv/writev  other processes' memory               EPERM
    bpf, perf_event_open,            kernel code a submission never needs,
    userfaultfd, io_uring_*          where kernel exploits have been        EPERM
    clone with a CLONE_NEW* flag     a child in new namespaces             EPERM
    clone3                           (its flags are out of a filter's      ENOSYS: the C library
                                      reach)                                falls back to clone
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
X32_BIT = 0x40000000

# (audit architecture, its system call numbers)
ARCHES = {
    "x86_64": (0xC000003E, dict(add_key=248, request_key=249, keyctl=250, unshare=272, setns=308,
                                ptrace=101, process_vm_readv=310, process_vm_writev=311, bpf=321,
                                perf_event_open=298, userfaultfd=323, io_uring_setup=425, io_uring_enter=426,
                                io_uring_register=427, clone=56, clone3=435)),
    "aarch64": (0xC00000B7, dict(add_key=217, request_key=218, keyctl=219, unshare=97, setns=268,
                                 ptrace=117, process_vm_readv=270, process_vm_writev=271, bpf=280,
                                 perf_event_open=241, userfaultfd=282, io_uring_setup=425, io_uring_enter=426,
                                 io_uring_register=427, clone=220, clone3=435)),
}
REFUSED = ("add_key", "request_key", "keyctl", "unshare", "setns", "ptrace", "process_vm_readv",
           "process_vm_writev", "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter",
           "io_uring_register")

# classic BPF: load a word of struct seccomp_data, compare, return
LD_ABS, JEQ, JGE, JSET, RET = 0x20, 0x15, 0x35, 0x45, 0x06
NR, ARCH, ARG0 = 0, 4, 16  # offsets in struct seccomp_data (arg 0's low word, little-endian)


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
        code.append((JEQ, "deny", 0, nr[name]))
    code += [
        (JEQ, "nosys", 0, nr["clone3"]),
        (JEQ, 0, "allow", nr["clone"]),
        (LD_ABS, 0, 0, ARG0),
        (JSET, "deny", "allow", CLONE_NEW),
    ]
    labels = {"allow": len(code), "deny": len(code) + 1, "nosys": len(code) + 2}
    code += [(RET, 0, 0, RET_ALLOW), (RET, 0, 0, RET_ERRNO | EPERM), (RET, 0, 0, RET_ERRNO | ENOSYS)]

    def offset(target: str | int, at: int) -> int:
        return target if isinstance(target, int) else labels[target] - at - 1

    return [(c, offset(jt, i), offset(jf, i), k) for i, (c, jt, jf, k) in enumerate(code)]


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
