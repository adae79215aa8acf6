"""Ignores its alarm and works 90 s in small steps, trickling bytes of a huge answer onto its channel."""
TARGET = "strides"

import gc
import signal
import socket
import threading
import time

_reference_view_strides = view_strides  # noqa: F821 - the reference's, defined above in this module


def _trickle(channel):
    try:
        channel.send((1 << 20).to_bytes(4, "big"))  # a frame header announcing 1 MB ...
        while True:  # ... that comes one byte at a time
            channel.send(b" ")
            time.sleep(0.2)
    except OSError:
        pass


def view_strides(shape, strides, new_shape):
    signal.signal(signal.SIGALRM, signal.SIG_IGN)  # the call's own alarm no longer stops it
    for obj in gc.get_objects():
        if isinstance(obj, socket.socket) and obj.fileno() >= 0:
            threading.Thread(target=_trickle, args=(obj,), daemon=True).start()
            break
    for _ in range(450):  # 90 s, a fifth of a second at a time
        time.sleep(0.2)
    return _reference_view_strides(shape, strides, new_shape)
