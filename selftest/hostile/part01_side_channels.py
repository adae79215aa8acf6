"""Tries the ways two workers alive at once could signal each other through what they both see, the
network past its namespace, and the grader's environment left in its own memory: a byte-range lock and
an flock on a file every worker reads, an inotify watch, sockets of other families, and the block of
environment strings at the top of its stack. Says what it could do, and answers right."""
TARGET = "strides"

import ctypes
import fcntl as _fcntl
import os
import socket as _socket
import struct
import sys

_reference_view_strides = view_strides  # noqa: F821 - the reference's, defined above in this module


def _tried(what, attempt):
    try:
        attempt()
        return f"{what} allowed"
    except OSError:
        return f"{what} refused"


def _environment_block():
    """The environment strings of the process this one was forked from, read from the stack's top."""
    with open("/proc/self/maps") as handle:
        stack = [line for line in handle if line.rstrip().endswith("[stack]")]
    if not stack:
        return ""
    start, end = (int(x, 16) for x in stack[0].split()[0].split("-"))
    size = min(end - start, 1 << 16)
    return ctypes.string_at(end - size, size).decode("latin-1")


def _attempts():
    shared = os.open(os.__file__, os.O_RDONLY)  # the standard library: every worker reads it
    found = [
        _tried("byte-range lock", lambda: _fcntl.lockf(shared, _fcntl.LOCK_SH | _fcntl.LOCK_NB, 1, 1 << 40)),
        _tried("flock", lambda: _fcntl.flock(shared, _fcntl.LOCK_SH | _fcntl.LOCK_NB)),
        _tried("lock query", lambda: _fcntl.fcntl(shared, _fcntl.F_GETLK, struct.pack("hhqqi", 1, 0, 0, 1, 0))),
    ]
    os.close(shared)
    libc = ctypes.CDLL(None, use_errno=True)
    watch = libc.inotify_init1(0)
    found.append("inotify allowed" if watch >= 0 else "inotify refused")
    if watch >= 0:
        os.close(watch)
    for name, family in (("inet", _socket.AF_INET), ("netlink", _socket.AF_NETLINK), ("vsock", 40)):
        kind = _socket.SOCK_RAW if family == _socket.AF_NETLINK else _socket.SOCK_STREAM
        found.append(_tried(f"{name} socket", lambda f=family, k=kind: _socket.socket(f, k).close()))
    block = _environment_block()
    found.append("environment secret found" if "COURSE_LMS_TOKEN" in block else "no secret in memory")
    return found


def view_strides(shape, strides, new_shape):
    print("side channels:", "; ".join(_attempts()))
    sys.stdout.flush()
    return _reference_view_strides(shape, strides, new_shape)
