"""Probes for Part 2."""

from __future__ import annotations

from typing import Any

from grader.harness.impl import Implementation
from grader.harness.probes import probe


@probe("dtypes.format_limits_of", subject="dtypes.format_limits")
def format_limits_of(impl: Implementation, exponent_bits: int, mantissa_bits: int, special: str) -> Any:
    """``format_limits`` of a layout, built as the implementation's own ``FloatFormat``."""
    fmt = impl.function("dtypes.FloatFormat")(exponent_bits, mantissa_bits, special)
    return impl.function("dtypes.format_limits")(fmt)
