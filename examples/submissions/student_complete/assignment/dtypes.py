"""Part 2 — number formats.

A binary floating-point format is described by its exponent bits, its mantissa
(fraction) bits and what it does with the all-ones exponent. Everything else
(largest value, smallest normal and subnormal, machine epsilon) follows from
that layout; ``torch.finfo`` is only used to check the answers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

_SPECIAL_KINDS = ("ieee", "nan_only", "none")


@dataclass(frozen=True)
class FloatFormat:
    """Bit layout of a sign + exponent + mantissa floating-point format.

    special:
        "ieee"      the all-ones exponent is reserved for inf and NaN
        "nan_only"  only all-ones exponent *and* all-ones mantissa is NaN (e4m3fn)
        "none"      every code is a finite number (e2m1)
    """

    exponent_bits: int
    mantissa_bits: int
    special: str

    def __post_init__(self) -> None:
        if not isinstance(self.exponent_bits, int) or self.exponent_bits < 1:
            raise ValueError(f"exponent_bits must be an int >= 1, got {self.exponent_bits!r}")
        if not isinstance(self.mantissa_bits, int) or self.mantissa_bits < 0:
            raise ValueError(f"mantissa_bits must be an int >= 0, got {self.mantissa_bits!r}")
        if self.special not in _SPECIAL_KINDS:
            raise ValueError(f"special must be one of {_SPECIAL_KINDS}, got {self.special!r}")

    @property
    def bias(self) -> int:
        """Exponent bias: 2**(e-1) - 1 (127 for float32, 7 for e4m3, 1 for e2m1)."""
        return 2 ** (self.exponent_bits - 1) - 1

    @property
    def bits(self) -> int:
        """Total width including the sign bit."""
        return 1 + self.exponent_bits + self.mantissa_bits


@dataclass(frozen=True)
class FormatLimits:
    """Extremes of a format, named as in ``torch.finfo``."""

    max: float
    smallest_normal: float
    smallest_subnormal: float
    eps: float


_FORMATS: dict[torch.dtype, FloatFormat] = {
    torch.float32: FloatFormat(8, 23, "ieee"),
    torch.float16: FloatFormat(5, 10, "ieee"),
    torch.bfloat16: FloatFormat(8, 7, "ieee"),
    torch.float8_e4m3fn: FloatFormat(4, 3, "nan_only"),
    torch.float8_e5m2: FloatFormat(5, 2, "ieee"),
}

# NVFP4 stores each value as E2M1: 1 sign, 2 exponent, 1 mantissa bit, no inf/NaN.
FP4_E2M1 = FloatFormat(exponent_bits=2, mantissa_bits=1, special="none")


def float_format(dtype: torch.dtype) -> FloatFormat:
    """The bit layout of one of torch's floating-point dtypes."""
    try:
        return _FORMATS[dtype]
    except (KeyError, TypeError):
        known = ", ".join(str(d) for d in _FORMATS)
        raise ValueError(f"no float format known for {dtype!r} (known: {known})") from None


def format_limits(fmt: FloatFormat) -> FormatLimits:
    """Largest finite value, smallest normal and subnormal values and epsilon of ``fmt``.

    With bias ``b`` and ``m`` mantissa bits:
      * a normal number is ``1.f * 2**(E - b)`` for exponent fields E = 1 .. E_max;
      * the smallest normal is ``2**(1 - b)``, the smallest subnormal ``2**(1 - b - m)``;
      * epsilon (the gap after 1.0) is ``2**-m``.
    The largest value depends on which codes are special:
      * "ieee": the top exponent field is inf/NaN, so E_max = 2**e - 2, full mantissa;
      * "nan_only": E_max = 2**e - 1 but its all-ones mantissa is NaN;
      * "none": E_max = 2**e - 1 with the full mantissa.
    """
    if not isinstance(fmt, FloatFormat):
        raise ValueError(f"expected a FloatFormat, got {fmt!r}")
    e, m, bias = fmt.exponent_bits, fmt.mantissa_bits, fmt.bias
    top_field = 2 ** e - 1
    all_ones_mantissa = 2 ** m - 1

    if fmt.special == "ieee":
        if e < 2:
            raise ValueError("an IEEE-style format needs at least 2 exponent bits")
        max_field, max_mantissa = top_field - 1, all_ones_mantissa
    elif fmt.special == "nan_only":
        if m == 0:
            # The top exponent holds only the NaN code: step down one binade.
            max_field, max_mantissa = top_field - 1, all_ones_mantissa
        else:
            max_field, max_mantissa = top_field, all_ones_mantissa - 1
    else:  # "none"
        max_field, max_mantissa = top_field, all_ones_mantissa

    if max_field < 1:
        raise ValueError(f"{fmt} has no normal numbers")

    largest = (1 + max_mantissa / 2 ** m) * 2.0 ** (max_field - bias)
    return FormatLimits(
        max=float(largest),
        smallest_normal=2.0 ** (1 - bias),
        smallest_subnormal=2.0 ** (1 - bias - m),
        eps=2.0 ** -m,
    )


def bytes_per_element(dtype: torch.dtype) -> int:
    """Bytes of one element, as ``torch.empty(0, dtype=dtype).element_size()``."""
    if not isinstance(dtype, torch.dtype):
        raise ValueError(f"expected a torch.dtype, got {dtype!r}")
    return torch.empty(0, dtype=dtype).element_size()


def tensor_nbytes(shape: tuple[int, ...], dtype: torch.dtype) -> int:
    """Bytes of a contiguous tensor of ``shape`` and ``dtype``: numel * element size."""
    shape = tuple(shape)
    if any(size < 0 for size in shape):
        raise ValueError(f"shape has a negative size: {shape!r}")
    return math.prod(shape) * bytes_per_element(dtype)


def underflows_to_zero(value: float, dtype: torch.dtype) -> bool:
    """Whether a nonzero ``value`` becomes 0 when stored in ``dtype``.

    Round-to-nearest-even sends everything up to half the smallest subnormal
    to zero: 1e-8 is below float16's 2**-25 but far above bfloat16's. Zero
    itself does not *underflow*, so ``value == 0`` gives False.
    """
    if not isinstance(dtype, torch.dtype) or not dtype.is_floating_point:
        raise ValueError(f"expected a floating-point torch.dtype, got {dtype!r}")
    value = float(value)
    if value == 0.0 or math.isnan(value):
        return False
    # compared exactly: torch's cast from float64 rounds through float32 first, and a value just
    # above the tie can become the tie there, then 0
    info = torch.finfo(dtype)
    return abs(value) <= info.smallest_normal * info.eps / 2


def nvfp4_values() -> list[float]:
    """All distinct values of E2M1, sorted: -6, -4, -3, -2, -1.5, -1, -0.5, 0, 0.5, ... 6.

    Decode every 4-bit code from the layout (+0 and -0 collapse into one value).
    """
    fmt = FP4_E2M1
    m, bias = fmt.mantissa_bits, fmt.bias
    values = set()
    for field in range(2 ** fmt.exponent_bits):
        for mantissa in range(2 ** m):
            if field == 0:  # subnormal: 0.f * 2**(1 - bias)
                magnitude = (mantissa / 2 ** m) * 2.0 ** (1 - bias)
            else:
                magnitude = (1 + mantissa / 2 ** m) * 2.0 ** (field - bias)
            values.add(magnitude)
            values.add(-magnitude)
    return sorted(values)


def nvfp4_nbytes(numel: int, block_size: int = 16) -> float:
    """Storage of ``numel`` values in NVFP4.

    0.5 byte per 4-bit value, one 1-byte E4M3 scale for every block (a partly
    filled last block still needs its scale), and one fp32 per-tensor scale.
    """
    if numel < 1:
        raise ValueError(f"numel must be >= 1, got {numel}")
    if block_size < 1:
        raise ValueError(f"block_size must be >= 1, got {block_size}")
    num_blocks = -(-numel // block_size)  # ceil division
    return 0.5 * numel + 1.0 * num_blocks + 4.0


def _round_to_e2m1(a: torch.Tensor) -> torch.Tensor:
    """Round values in [-6, 6] to the nearest E2M1 value, ties to an even mantissa bit.

    The non-negative grid is 0, 0.5, 1, 1.5, 2, 3, 4, 6 (codes 0 .. 7); code
    ``i`` has mantissa bit ``i % 2``. Between codes ``i`` and ``i + 1`` sits a
    midpoint; a value exactly on it goes to whichever code is even.
    """
    grid = torch.tensor([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0], dtype=a.dtype, device=a.device)
    magnitude = a.abs()
    code = torch.zeros_like(magnitude, dtype=torch.long)
    for i in range(len(grid) - 1):
        midpoint = (grid[i] + grid[i + 1]) / 2
        if i % 2 == 0:  # lower code is even: a tie stays down
            code += (magnitude > midpoint).long()
        else:  # upper code is even: a tie goes up
            code += (magnitude >= midpoint).long()
    return torch.copysign(grid[code], a)


def nvfp4_quantize(x: torch.Tensor, block_size: int = 16) -> torch.Tensor:
    """Fake-quantize a 1-D float32 tensor to NVFP4 and return the dequantized values.

    Per block of ``block_size`` values (the last one may be shorter):
      scale = amax / 6 (float32), q = round_e2m1(clamp(x / scale, -6, 6)), out = q * scale.
    An all-zero block has scale 0 and stays zero.
    """
    if not isinstance(x, torch.Tensor):
        raise ValueError(f"expected a torch.Tensor, got {type(x).__name__}")
    if x.dim() != 1:
        raise ValueError(f"expected a 1-D tensor, got shape {tuple(x.shape)}")
    if x.dtype != torch.float32:
        raise ValueError(f"expected a float32 tensor, got {x.dtype}")
    if not isinstance(block_size, int) or block_size < 1:
        raise ValueError(f"block_size must be an int >= 1, got {block_size!r}")

    n = x.numel()
    if n == 0:
        return x.clone()

    num_blocks = -(-n // block_size)
    padded = torch.zeros(num_blocks * block_size, dtype=torch.float32, device=x.device)
    padded[:n] = x.detach()
    blocks = padded.view(num_blocks, block_size)  # zero padding never changes an amax

    amax = blocks.abs().amax(dim=1, keepdim=True)
    scale = amax / 6.0
    safe_scale = torch.where(scale > 0, scale, torch.ones_like(scale))
    scaled = torch.clamp(blocks / safe_scale, -6.0, 6.0)
    dequant = _round_to_e2m1(scaled) * safe_scale
    dequant = torch.where(scale > 0, dequant, torch.zeros_like(dequant))
    return dequant.reshape(-1)[:n].contiguous()
