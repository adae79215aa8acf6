"""At import, adds an always-ready descriptor to every epoll set it inherited; its answers are right."""
TARGET = "strides"

import ctypes
import os
import select


class _Event(ctypes.Structure):
    _pack_ = 1  # struct epoll_event is packed on x86-64
    _fields_ = [("events", ctypes.c_uint32), ("data", ctypes.c_uint64)]


def _stall():
    libc = ctypes.CDLL(None, use_errno=True)
    ready = os.eventfd(1)  # always readable
    joined = []
    for fd in range(3, 1024):
        for claimed in (3, 4, 5):  # it says "ready" in the name of the fork server's listening socket
            event = _Event(select.EPOLLIN, claimed)
            if libc.epoll_ctl(fd, 1, ready, ctypes.byref(event)) == 0:  # EPOLL_CTL_ADD
                joined.append(fd)
                break
    print("epoll sets joined:", joined)


_stall()
