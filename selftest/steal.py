"""Steal time, faked: a virtual machine's CPUs taken by its host, as /proc/stat would count them."""

import os
import time

from grader.harness import transport


def steal_faked(monkeypatch, cpus: str) -> None:
    """From now on, ``cpus`` ("all" the machine's, or "none" of them: one CPU past its last) read as taken by
    their host for all of the wall time that passes."""
    began, count = time.monotonic(), len(transport.machine_steal()) or os.cpu_count()
    taken = range(count) if cpus == "all" else [count]
    monkeypatch.setattr(transport, "machine_steal", lambda: tuple(
        time.monotonic() - began if cpu in taken else 0.0 for cpu in range(count + 1)))
