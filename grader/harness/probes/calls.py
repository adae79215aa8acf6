"""The plainest probes: call one function of the spec, read one constant."""

from __future__ import annotations

from typing import Any

from grader.harness.impl import Implementation
from grader.harness.probe import probe


@probe(subject="call", name="calls.call")
def call(impl: Implementation, function: str, *args: Any) -> Any:
    """``module.function(*args)`` of the implementation, as it returned it."""
    return impl.function(function)(*args)


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
