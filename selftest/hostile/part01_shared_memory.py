"""Leaves System V shared memory segments (2 x 256 MB) and /dev/shm files (240 MB) behind."""
TARGET = "strides"

import ctypes
import os

IPC_PRIVATE, IPC_CREAT = 0, 0o1000


def view_strides(shape, strides, new_shape):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmget.restype = ctypes.c_int
    segments = [libc.shmget(IPC_PRIVATE, ctypes.c_size_t(256 << 20), IPC_CREAT | 0o666) for _ in range(2)]
    files = []
    for n in range(4):
        try:
            with open(f"/dev/shm/hoard-{os.getpid()}-{n}", "wb") as handle:
                handle.write(b"\1" * (60 << 20))
            files.append(n)
        except OSError:
            break
    print("segments:", segments, "shm files:", files)
    return None
