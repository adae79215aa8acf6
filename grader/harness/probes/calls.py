"""The plainest probes: call one function of the spec, read one constant."""

from __future__ import annotations

from typing import Any

import torch

from grader.harness.impl import Implementation
from grader.harness.probe import ArgumentChanged, probe


@probe(subject="call", name="calls.call")
def call(impl: Implementation, function: str, *args: Any) -> Any:
    """``module.function(*args)`` of the implementation, as it returned it. A tensor argument it changed
    in place (``x.div_(s)``, ``grad_y.t_()``: the caller's tensor destroyed) is reported instead."""
    fn = impl.function(function)
    before = [(i, _state(a)) for i, a in enumerate(args) if type(a) is torch.Tensor]
    value = fn(*args)
    for i, state in before:
        if _state(args[i]) != state:
            raise ArgumentChanged(i)
    return value


def _state(t: torch.Tensor) -> tuple:
    """What a caller of a function sees of a tensor it passed: its layout and the bits of its values."""
    bits = torch.Tensor.detach(t).cpu().reshape(-1).contiguous().view(torch.uint8)
    return tuple(t.shape), t.stride(), t.storage_offset(), t.dtype, bits.numpy().tobytes()


@probe(subject="constant", name="calls.constant")
def constant(impl: Implementation, name: str) -> Any:
    """The value of a module-level constant, e.g. ``roofline.PEAK_FLOPS_PER_SEC``.

    A stub leaves such a constant as ``NotImplemented`` (or ``...``); that reads
    as "not implemented", like a function that raises.
    """
    value = impl.function(name)
    if value is NotImplemented or value is Ellipsis:
        raise NotImplementedError(name)
    return value
