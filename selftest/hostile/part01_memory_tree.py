"""Holds memory across threads and child processes, each under the per-process limit, then answers right."""
TARGET = "strides"

import os
import select
import threading
import time

_reference_view_strides = view_strides  # noqa: F821 - the reference's, defined above in this module
HOLD_MB = 400  # six of these: 2.4 GB, against the self-test's 1 GB limit over the worker's start (a cgroup's
# limit is that plus the fork server's size, about 0.5 GB more: 1.5 GB only sometimes crossed it)


def _hold(megabytes):
    block = bytearray(megabytes << 20)
    for i in range(0, len(block), 4096):  # touch every page: resident, not just reserved
        block[i] = 1
    return block


def view_strides(shape, strides, new_shape):
    children = []
    ready_read, ready_write = os.pipe()
    for _ in range(4):
        pid = os.fork()
        if pid == 0:
            try:
                held = _hold(HOLD_MB)  # noqa: F841 - kept while it sleeps
                os.write(ready_write, b"+")
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
    ready = 0
    waited = time.monotonic() + 5.0  # every child holds its share before the clock starts (one killed for
    while ready < len(children) and select.select([ready_read], [], [], max(0.0, waited - time.monotonic()))[0]:
        ready += len(os.read(ready_read, len(children)))  # memory never says so: waited for 5 s at most)
    time.sleep(2.0)  # held long enough to be seen, however busy the machine
    for pid in children:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    return _reference_view_strides(shape, strides, new_shape)
