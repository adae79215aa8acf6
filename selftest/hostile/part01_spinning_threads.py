"""Starts three threads at import that spin forever, and sleeps a second in each view_strides call (the spinners
run meanwhile, as they would in any call they slow): every call it answers is slower, each under its limit."""
TARGET = "strides"

import threading
import time

_reference_view_strides = view_strides  # noqa: F821 - the reference's, defined above in this module


def _spin():
    while True:
        sum(range(10_000))


for _ in range(3):
    threading.Thread(target=_spin, daemon=True).start()


def view_strides(shape, strides, new_shape):
    time.sleep(1.0)
    return _reference_view_strides(shape, strides, new_shape)
