"""Starts many processes that outlive the call (bounded: 40, each sleeping), some as daemons."""
TARGET = "strides"

import os
import time


def view_strides(shape, strides, new_shape):
    for _ in range(40):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            try:
                os.setsid()
                if os.fork() == 0:
                    time.sleep(1000)
            finally:
                os._exit(0)
    return None
