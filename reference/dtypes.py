"""Part 2 reference: number formats."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F

SPECIALS = ("ieee", "nan_only", "none")


@dataclass(frozen=True)
class FloatFormat:
    exponent_bits: int
    mantissa_bits: int
    special: str  # "ieee", "nan_only" or "none": which codes are not finite numbers


@dataclass(frozen=True)
class FormatLimits:
    max: float
    smallest_normal: float
    smallest_subnormal: float
    eps: float


_FORMATS = {
    torch.float32: FloatFormat(8, 23, "ieee"),
    torch.float16: FloatFormat(5, 10, "ieee"),
    torch.bfloat16: FloatFormat(8, 7, "ieee"),  # fp32's exponent, so fp32's range
    torch.float8_e4m3fn: FloatFormat(4, 3, "nan_only"),
    torch.float8_e5m2: FloatFormat(5, 2, "ieee"),
}

FP4_E2M1 = FloatFormat(2, 1, "none")


def float_format(dtype: torch.dtype) -> FloatFormat:
    if not isinstance(dtype, torch.dtype) or dtype not in _FORMATS:
        known = ", ".join(str(d) for d in _FORMATS)
        raise ValueError(f"no float format for {dtype!r}; known: {known}")
    return _FORMATS[dtype]


def format_limits(fmt: FloatFormat) -> FormatLimits:
    e, m, special = fmt.exponent_bits, fmt.mantissa_bits, fmt.special
    if type(e) is not int or not 2 <= e <= 11:
        raise ValueError(f"exponent_bits must be an int in 2..11, got {e!r}")
    if type(m) is not int or not 1 <= m <= 52:
        raise ValueError(f"mantissa_bits must be an int in 1..52, got {m!r}")
    if special not in SPECIALS:
        raise ValueError(f"special must be one of {SPECIALS}, got {special!r}")
    bias = 2 ** (e - 1) - 1
    if special == "ieee":  # the all-ones exponent is inf/NaN: the top finite exponent is one below
        top_exponent, top_mantissa = 2**e - 2, 2**m - 1
    elif special == "nan_only":  # the all-ones exponent is usable, except its all-ones mantissa (NaN)
        top_exponent, top_mantissa = 2**e - 1, 2**m - 2
    else:  # every code is a finite number
        top_exponent, top_mantissa = 2**e - 1, 2**m - 1
    try:
        # 1.mantissa x 2^(exponent - bias), as an integer significand: exact for m <= 52
        largest = math.ldexp(2**m + top_mantissa, top_exponent - bias - m)
    except OverflowError:
        raise ValueError(f"the largest value of {fmt} does not fit in a Python float") from None
    return FormatLimits(
        max=largest,
        smallest_normal=math.ldexp(1.0, 1 - bias),  # exponent field 1, mantissa 0
        smallest_subnormal=math.ldexp(1.0, 1 - bias - m),  # exponent field 0, mantissa 0...01
        eps=math.ldexp(1.0, -m),  # the gap between 1 and the next value: one unit of the last mantissa bit
    )


def bytes_per_element(dtype: torch.dtype) -> int:
    if not isinstance(dtype, torch.dtype):
        raise ValueError(f"expected a torch.dtype, got {dtype!r}")
    return dtype.itemsize


def tensor_nbytes(shape: tuple[int, ...], dtype: torch.dtype) -> int:
    if any(size < 0 for size in shape):
        raise ValueError(f"shape {tuple(shape)} has a negative size")
    return math.prod(shape) * bytes_per_element(dtype)


def underflows_to_zero(value: float, dtype: torch.dtype) -> bool:
    fmt = float_format(dtype)
    if value == 0 or math.isnan(value):
        raise ValueError(f"value must be a nonzero number, got {value!r}")
    # Round to nearest, ties to even: anything up to half the smallest subnormal goes to 0
    # (at exactly half, 0 wins the tie: its mantissa is even); anything above rounds up to it.
    return abs(value) <= format_limits(fmt).smallest_subnormal / 2


def nvfp4_values() -> list[float]:
    """Decode every E2M1 code: 2 exponent bits (bias 1), 1 mantissa bit, no inf/NaN."""
    e, m = FP4_E2M1.exponent_bits, FP4_E2M1.mantissa_bits
    bias = 2 ** (e - 1) - 1
    values = set()
    for exponent in range(2**e):
        for mantissa in range(2**m):
            if exponent == 0:  # subnormal: 0.mantissa x 2^(1 - bias)
                magnitude = math.ldexp(mantissa, 1 - bias - m)
            else:  # normal: 1.mantissa x 2^(exponent - bias)
                magnitude = math.ldexp(2**m + mantissa, exponent - bias - m)
            values |= {magnitude, -magnitude}  # +0 and -0 are one value
    return sorted(values)


_FP4_BYTES = 0.5  # 4 bits a value
_BLOCK_SCALE_BYTES = torch.float8_e4m3fn.itemsize
_TENSOR_SCALE_BYTES = torch.float32.itemsize


def nvfp4_nbytes(numel: int, block_size: int = 16) -> float:
    if numel < 1 or block_size < 1:
        raise ValueError(f"numel and block_size must be >= 1, got {numel} and {block_size}")
    blocks = -(-numel // block_size)  # every started block has its scale
    return numel * _FP4_BYTES + blocks * _BLOCK_SCALE_BYTES + _TENSOR_SCALE_BYTES


_FP4_MAX = 6.0


def nvfp4_quantize(x: torch.Tensor, block_size: int = 16) -> torch.Tensor:
    if type(x) is not torch.Tensor or x.dim() != 1 or x.dtype != torch.float32:
        raise ValueError("x must be a 1-D float32 tensor")
    if block_size < 1:
        raise ValueError(f"block_size must be >= 1, got {block_size}")
    n = x.numel()
    # zeros pad the short last block: they change no block's amax
    blocks = F.pad(x, (0, -n % block_size)).view(-1, block_size)  # [num_blocks, block_size]
    scale = blocks.abs().amax(dim=1, keepdim=True) / _FP4_MAX  # [num_blocks, 1], float32
    # an all-zero block has scale 0: divide by 1 instead, its values stay 0
    scaled = (blocks / torch.where(scale > 0, scale, 1.0)).clamp(-_FP4_MAX, _FP4_MAX)
    return (_round_to_e2m1(scaled) * scale).reshape(-1)[:n]


def _round_to_e2m1(r: torch.Tensor) -> torch.Tensor:
    """Round each |r| <= 6 to the nearest E2M1 value, a tie to the even mantissa bit.

    E2M1 values are evenly spaced within a range: 0.5 apart up to 2, 1 apart from 2
    to 4, 2 apart from 4 to 6. Divided by that spacing they are exactly the integers,
    and an even integer is an even mantissa bit (2 -> 1.0, 3 -> 1.5, 4 -> 2.0 ...),
    so ``torch.round``, which rounds half to even, is the hardware's rounding.
    """
    magnitude = r.abs()
    step = torch.where(magnitude < 2, 0.5, torch.where(magnitude < 4, 1.0, 2.0))
    return torch.copysign(torch.round(magnitude / step) * step, r)
