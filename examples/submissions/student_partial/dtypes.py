"""Part 2: number formats."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class FloatFormat:
    exponent_bits: int
    mantissa_bits: int
    special: str  # "ieee", "nan_only" or "none"


@dataclass(frozen=True)
class FormatLimits:
    max: float
    smallest_normal: float
    smallest_subnormal: float
    eps: float


FP4_E2M1 = FloatFormat(2, 1, "none")

_FORMATS = {
    torch.float32: FloatFormat(8, 23, "ieee"),
    torch.float16: FloatFormat(5, 10, "ieee"),
    torch.bfloat16: FloatFormat(8, 7, "ieee"),
    torch.float8_e4m3fn: FloatFormat(4, 3, "nan_only"),
    torch.float8_e5m2: FloatFormat(5, 2, "ieee"),
}


def float_format(dtype: torch.dtype) -> FloatFormat:
    if dtype not in _FORMATS:
        raise ValueError(f"unsupported dtype {dtype}")
    return _FORMATS[dtype]


def format_limits(fmt: FloatFormat) -> FormatLimits:
    e, m = fmt.exponent_bits, fmt.mantissa_bits
    if e < 1 or m < 0:
        raise ValueError(f"bad format {fmt}")
    bias = 2 ** (e - 1) - 1
    if fmt.special == "ieee":
        # all-ones exponent is inf/nan -> largest exponent field is 2^e - 2
        largest = (2 - 2.0 ** -m) * 2.0 ** (2 ** e - 2 - bias)
    elif fmt.special == "nan_only":
        # all-ones exponent is usable, but S.1111.111 is NaN -> drop one ulp
        if m < 1:
            raise ValueError("nan_only needs at least one mantissa bit")
        largest = (2 - 2.0 ** (1 - m)) * 2.0 ** (2 ** e - 1 - bias)
    elif fmt.special == "none":
        largest = (2 - 2.0 ** -m) * 2.0 ** (2 ** e - 1 - bias)
    else:
        raise ValueError(f"unknown special value convention {fmt.special!r}")
    return FormatLimits(
        max=largest,
        smallest_normal=2.0 ** (1 - bias),
        smallest_subnormal=2.0 ** (1 - bias - m),
        eps=2.0 ** -m,
    )


def bytes_per_element(dtype: torch.dtype) -> int:
    if not isinstance(dtype, torch.dtype):
        raise ValueError(f"not a dtype: {dtype!r}")
    return dtype.itemsize


def tensor_nbytes(shape: tuple[int, ...], dtype: torch.dtype) -> int:
    if any(s < 0 for s in shape):
        raise ValueError(f"negative size in {shape}")
    return math.prod(shape) * bytes_per_element(dtype)


def underflows_to_zero(value: float, dtype: torch.dtype) -> bool:
    # Round to nearest even: anything up to half the smallest subnormal goes to 0
    # (exactly half is a tie between 0 and the subnormal, and 0 is the even one).
    tiny = format_limits(float_format(dtype)).smallest_subnormal
    return value != 0 and abs(value) <= tiny / 2


def nvfp4_values() -> list[float]:
    # e2m1, bias 1: exponent field 0 is subnormal (0, 0.5), fields 1..3 are 1.x * 2^(E-1)
    mags = [0.0, 0.5]
    for field in (1, 2, 3):
        for mant in (0, 1):
            mags.append((1 + mant / 2) * 2.0 ** (field - 1))
    return sorted(set(mags) | {-v for v in mags})


def nvfp4_nbytes(numel: int, block_size: int = 16) -> float:
    if numel < 1 or block_size < 1:
        raise ValueError("numel and block_size must be >= 1")
    blocks = math.ceil(numel / block_size)
    return numel * 0.5 + blocks * 1 + 4.0


def _round_e2m1(a: torch.Tensor) -> torch.Tensor:
    """Round |a| <= 6 onto the E2M1 grid, ties to even mantissa.

    In the binade [2^k, 2^(k+1)) the grid step is 2^k / 2 (one mantissa bit); below 1
    the subnormal step is 0.5. Dividing by the step makes the grid the integers, and an
    even integer is an even mantissa, so torch.round (half to even) does the tie rule.
    """
    mag = a.abs()
    _, exp = torch.frexp(mag)  # mag = frac * 2^exp, frac in [0.5, 1)
    k = torch.clamp(exp - 1, min=0)  # floor(log2(mag)), at least 0
    step = torch.pow(2.0, k.to(torch.float32)) / 2
    q = torch.round(mag / step) * step
    return torch.where(a < 0, -q, q)


def nvfp4_quantize(x: torch.Tensor, block_size: int = 16) -> torch.Tensor:
    if x.ndim != 1 or x.dtype != torch.float32:
        raise ValueError("x must be a 1-D float32 tensor")
    if block_size < 1:
        raise ValueError("block_size must be >= 1")
    out = torch.zeros_like(x)
    for i in range(0, x.numel(), block_size):
        block = x[i:i + block_size]
        amax = block.abs().max()
        scale = amax / 6  # float32
        if scale == 0:
            continue  # an all-zero block (or one whose amax / 6 underflows float32) stays zero
        q = _round_e2m1(torch.clamp(block / scale, -6.0, 6.0))
        out[i:i + block_size] = q * scale
    return out
