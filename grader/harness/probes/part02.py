"""Probes and judges for Part 2."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

from grader.harness.impl import Implementation
from grader.harness.probe import Report, judge, probe


@probe(subject="dtypes.format_limits")
def format_limits_of(impl: Implementation, exponent_bits: int, mantissa_bits: int, special: str) -> Any:
    """``format_limits`` of a layout, built as the implementation's own ``FloatFormat``."""
    fmt = impl.function("dtypes.FloatFormat")(exponent_bits, mantissa_bits, special)
    return impl.function("dtypes.format_limits")(fmt)


@dataclass(frozen=True)
class Band(Report):
    """Per value of x: where float32 rounding may rightly send it besides the reference's answer."""

    low: torch.Tensor  # the E2M1 neighbour below a nearby rounding midpoint, dequantized (float64)
    high: torch.Tensor  # ... and the one above
    near: torch.Tensor  # bool: x / scale is within 2^-20 of a midpoint, in a block whose scale is not a power of two


@judge(subject="dtypes.nvfp4_quantize")
def nvfp4_band(x: torch.Tensor, block_size: int) -> Band:
    """The neighbours a value near a rounding midpoint may go to (see ``check_nvfp4_quantize``).

    Computed on the trusted side (``grader/judges/part02.py``, staff-only: it knows
    the E2M1 grid and the block scales, most of a quantizer); the handout replays
    recorded bands.
    """
