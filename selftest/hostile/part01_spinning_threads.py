"""Starts three threads at import that spin forever: every call it answers is slowed, each under its limit."""
TARGET = "strides"

import threading


def _spin():
    while True:
        sum(range(10_000))


for _ in range(3):
    threading.Thread(target=_spin, daemon=True).start()
