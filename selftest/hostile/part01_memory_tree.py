"""Holds memory across threads and child processes, each under the per-process limit, then answers right."""
TARGET = "strides"

import os
import threading
import time

_reference_view_strides = view_strides  # noqa: F821 - the reference's, defined above in this module
HOLD_MB = 400  # six of these: 2.4 GB, against the self-test's 1 GB limit


def _hold(megabytes):
    block = bytearray(megabytes << 20)
    for i in range(0, len(block), 4096):  # touch every page: resident, not just reserved
        block[i] = 1
    return block


def view_strides(shape, strides, new_shape):
    children = []
    for _ in range(4):
        pid = os.fork()
        if pid == 0:
            try:
                held = _hold(HOLD_MB)  # noqa: F841 - kept while it sleeps
                time.sleep(60)
            finally:
                os._exit(0)
        children.append(pid)
    held = []
    threads = [threading.Thread(target=lambda: held.append(_hold(HOLD_MB))) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    time.sleep(1.0)  # held long enough to be seen
    for pid in children:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    return _reference_view_strides(shape, strides, new_shape)
