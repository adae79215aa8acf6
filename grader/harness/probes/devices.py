"""The device check a GPU pass makes before it grades: can a sandboxed worker use the GPU?

A GPU that the grader's own fresh process can use may still be out of a worker's reach:
the worker's namespaces, view of the filesystem, user id, limits and system-call filter all
stand between it and the driver (on one H200, every worker's CUDA failed to start).
A batch asks this of a clean worker once, before the first submission, and says at once
what the worker met, rather than after every cuda test has failed with a harness error.
"""

from __future__ import annotations

from dataclasses import dataclass

from grader.harness.probe import Report, judge


@dataclass(frozen=True)
class DeviceUsed(Report):
    """The device a small computation ran on."""

    name: str


@judge(subject="cuda", clean=True, record=False, timeout=120)
def compute_on(device: str) -> DeviceUsed:
    """Allocate on ``device``, compute, synchronise; its name (``grader/judges/devices.py``)."""
