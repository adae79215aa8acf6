"""Probes and judges for Part 5."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

from grader.harness.digest import Secret
from grader.harness.impl import Implementation
from grader.harness.probe import Report, judge, probe

DATASHEET = Secret(rel=1e-3)  # datasheet figures are accepted within 0.1%


@probe(subject="roofline.promised_flops_per_sec", secret=DATASHEET)
def promised(impl: Implementation, device_name: str, dtype: torch.dtype) -> Any:
    """("ok", peak), or ("ValueError", None) where the implementation raised the ValueError the spec asks for."""
    try:
        return "ok", impl.function("roofline.promised_flops_per_sec")(device_name, dtype)
    except ValueError:
        return "ValueError", None


@probe(subject="roofline.time_matmul", timeout=30, batch=False)
def time_matmul_call(impl: Implementation, m: int, k: int, n: int, dtype: torch.dtype, device: str,
                     warmup: int | None, trials: int | None) -> Any:
    """The implementation's ``time_matmul``, as it returned it (``warmup``/``trials`` None: its defaults).

    Run with ``impl.measure``: the door times the whole call from outside, wall
    clock and CPU, which is what the test holds the figure against.
    """
    counts = () if warmup is None else (warmup, trials)
    return impl.function("roofline.time_matmul")(m, k, n, dtype, device, *counts)


@dataclass(frozen=True)
class MatmulCost(Report):
    """One [m, k] @ [k, n] product as the harness measured it: median of many, warmed up."""

    wall_seconds: float
    cpu_seconds: float
    device_name: str  # torch.cuda.get_device_name() on CUDA, "cpu" on the CPU


@judge(subject="roofline.time_matmul", clean=True, record=False, timeout=120)
def matmul_cost(m: int, k: int, n: int, dtype: torch.dtype, device: str) -> MatmulCost:
    """The harness's own timing of one product, in a process where no submission ever ran:
    on the CPU a median of single-threaded products; on CUDA, CUDA events around each
    product after a warm-up, the L2 cache flushed before each (``grader/judges/part05.py``,
    staff-only). Never recorded: the handout has no measurements."""
