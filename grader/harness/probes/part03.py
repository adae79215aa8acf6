"""Probes and judges for Part 3."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grader.harness.impl import Implementation
from grader.harness.probe import Report, judge, probe


@probe(subject="memory.MemoryLedger.total")
def ledger_total(impl: Implementation, fields: dict[str, int]) -> Any:
    """``MemoryLedger(**fields).total`` of the implementation's own ledger class, and its total again after
    each line given is doubled in place (set as a plain attribute, past any frozen dataclass's guard)."""
    ledger = impl.function("memory.MemoryLedger")(**fields)
    first = ledger.total
    for name, value in fields.items():
        object.__setattr__(ledger, name, 2 * value)
    return first, ledger.total


@dataclass(frozen=True)
class StepAllocations(Report):
    """What the CUDA allocator handed out in one fp32 AdamW step of a Cruncher-shaped model."""

    measured: dict[str, int]  # bytes ``torch.cuda.memory_allocated`` gained, per ledger line
    tensors: dict[str, int]  # allocations per line: each may be rounded up to the allocator's 512-byte blocks


@judge(subject="memory.training_ledger", clean=True, record=False, timeout=120)
def cuda_step_allocations(batch: int, dim: int, num_layers: int) -> StepAllocations:
    """One fp32 AdamW step of ``num_layers`` dim×dim matmuls then dim×1, on CUDA, with the
    allocator's ``memory_allocated`` read between phases: parameters, activations (the
    input and every layer's input, kept for backward, with the output and the loss),
    gradients, optimizer state.

    A measurement: made in a process where no submission ever ran
    (``grader/judges/part03.py``, staff-only), never recorded.
    """
