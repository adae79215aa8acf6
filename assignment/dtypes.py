"""Part 2 — number formats.

Every parameter, gradient, optimizer state and activation is a tensor, and its
dtype decides how many bytes each element takes, how large and how small a
number it can hold, and how coarsely it rounds. A floating-point format is a
sign bit, ``e`` exponent bits and ``m`` mantissa bits:

    dtype             bits   exponent  mantissa   notes
    float32           32     8         23
    float16           16     5         10         small range: 1e-8 underflows to 0
    bfloat16          16     8         7          fp32's exponent, so fp32's range
    float8_e4m3fn     8      4         3          about ±448; forward weights/activations
    float8_e5m2       8      5         2          wider range, coarser; gradients
    E2M1 (NVFP4)      4      2         1          15 values from -6 to 6, block scales

Lecture facts: ``torch.tensor([1e-8], dtype=torch.float16)`` prints
``tensor([0.])`` (underflow) while bfloat16 keeps ``1e-8``, because bfloat16
gives up mantissa bits (7 instead of 10) to keep fp32's 8 exponent bits. NVFP4
stores each value in 4 bits and gives every small block of values its own
scale, so its real storage cost is more than 0.5 byte a value.

How a code (exponent field E, mantissa field M) decodes, with bias = 2^(e-1) - 1:
    E > 0:  (1 + M / 2^m) x 2^(E - bias)     a normal number
    E = 0:  (M / 2^m) x 2^(1 - bias)         a subnormal number (0 when M = 0)

Bad arguments (an unknown dtype, a format out of range, a size below 1) raise
``ValueError`` with a message saying what was wrong.

Check yourself against torch: ``torch.finfo(dtype)`` has ``max``,
``smallest_normal`` and ``eps``; ``torch.empty(0, dtype=d).element_size()``
gives bytes per element.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class FloatFormat:
    """A floating-point layout: a sign bit, ``exponent_bits`` and ``mantissa_bits``.

    ``special`` says which codes are not finite numbers:
        "ieee"      the all-ones exponent is reserved for inf and NaN (float32, float16,
                    bfloat16, float8_e5m2)
        "nan_only"  only all-ones exponent *and* all-ones mantissa is NaN; the all-ones
                    exponent otherwise holds ordinary numbers (float8_e4m3fn, "fn" = finite)
        "none"      every code is a finite number (E2M1)
    """

    exponent_bits: int
    mantissa_bits: int
    special: str


@dataclass(frozen=True)
class FormatLimits:
    """The extremes of a format, as Python floats."""

    max: float  # the largest finite value
    smallest_normal: float  # the smallest positive normal value (torch.finfo's smallest_normal)
    smallest_subnormal: float  # the smallest positive value of all
    eps: float  # the gap between 1.0 and the next larger value


FP4_E2M1: FloatFormat = NotImplemented  # the NVFP4 element format: fill this in as a FloatFormat


def float_format(dtype: torch.dtype) -> FloatFormat:
    """The ``FloatFormat`` of one of five torch dtypes (see the table at the top).

    Supported: float32, float16, bfloat16, float8_e4m3fn, float8_e5m2; any other
    argument raises ``ValueError``.

    Example: torch.bfloat16 -> FloatFormat(exponent_bits=8, mantissa_bits=7, special="ieee")
    """
    raise NotImplementedError("dtypes.float_format")


def format_limits(fmt: FloatFormat) -> FormatLimits:
    """``max``, ``smallest_normal``, ``smallest_subnormal`` and ``eps``, from the bit layout alone.

    With e exponent bits, m mantissa bits and bias = 2^(e-1) - 1:
        smallest_normal    = 2^(1 - bias)            (exponent field 1, mantissa 0)
        smallest_subnormal = 2^(1 - bias - m)        (exponent field 0, mantissa 0...01)
        eps                = 2^-m                    (one step of the last mantissa bit at 1.0)
        max, the largest finite code:
            "ieee":     exponent field 2^e - 2 (all-ones is inf/NaN), mantissa all ones
                        -> (2 - 2^-m) x 2^(2^e - 2 - bias)
            "nan_only": exponent field 2^e - 1, mantissa all ones but the last bit
                        -> (2 - 2^(1-m)) x 2^(2^e - 1 - bias)
            "none":     exponent field 2^e - 1, mantissa all ones
                        -> (2 - 2^-m) x 2^(2^e - 1 - bias)

    Valid formats: 2 <= exponent_bits <= 11, 1 <= mantissa_bits <= 52, ``special`` one
    of the three names (a largest value beyond a Python float is an error too);
    else ``ValueError``. Every result is exact (a power of two, or close to one), so
    compute with powers of two, not with logs.

    Examples:
        float16  (5, 10, "ieee"):    bias 15, max (2 - 2^-10) x 2^15 = 65504.0,
                 smallest_normal 2^-14 = 6.103515625e-05,
                 smallest_subnormal 2^-24 = 5.960464477539063e-08, eps 2^-10 = 0.0009765625
        float8_e4m3fn (4, 3, "nan_only"): bias 7, max 1.75 x 2^8 = 448.0
        E2M1 (2, 1, "none"):         max 1.5 x 2^2 = 6.0, smallest_subnormal 0.5
    These equal ``torch.finfo`` where torch has the dtype.
    """
    raise NotImplementedError("dtypes.format_limits")


def bytes_per_element(dtype: torch.dtype) -> int:
    """Bytes one element of ``dtype`` takes, as ``tensor.element_size()`` reports.

    Bits / 8: float32 is 1 + 8 + 23 = 32 bits = 4 bytes; bfloat16 and float16 2;
    both float8 formats 1; int64 8; bool 1 (a whole byte, not a bit); complex64 8
    (two float32). A ``torch.dtype`` knows its own size (``dtype.itemsize``).
    Anything that is not a ``torch.dtype`` (the string "float32", say) raises ``ValueError``.
    """
    raise NotImplementedError("dtypes.bytes_per_element")


def tensor_nbytes(shape: tuple[int, ...], dtype: torch.dtype) -> int:
    """Bytes of a contiguous tensor: number of elements x bytes per element.

    A negative size raises ``ValueError``. A 0-d tensor (shape ``()``) has one element.
    Don't allocate the tensor to find out: the shapes here can be far larger than your
    memory (multiply, or ask a tensor on ``device="meta"``, which has no storage).

    Example (lecture): one GPT-3 feed-forward matrix, (12288, 49152) in float32 ->
    12288 x 49152 x 4 = 2,415,919,104 bytes (about 2.3 GB).
    """
    raise NotImplementedError("dtypes.tensor_nbytes")


def underflows_to_zero(value: float, dtype: torch.dtype) -> bool:
    """Whether the nonzero real number ``value`` rounds to 0 when stored in ``dtype``.

    Storing rounds to the nearest representable value, a tie going to the one whose
    last mantissa bit is 0 ("round half to even"). The representable values nearest
    to 0 are 0 and the smallest subnormal s (see ``format_limits``), so ``value``
    becomes 0 exactly when |value| <= s / 2: at exactly s / 2 it is a tie, and 0
    (mantissa all zeros) is the even one.

    ``dtype`` is one of the five of ``float_format``; else ``ValueError``, as for
    ``value == 0``. Compute with the exact real value: a cast in torch goes through
    float32 first, which can round twice.

    Examples (lecture): 1e-8 in float16 -> True (s = 2^-24, about 6e-8; s / 2 is
    about 3e-8); 1e-8 in bfloat16 -> False (s = 2^-133).
    """
    raise NotImplementedError("dtypes.underflows_to_zero")


def nvfp4_values() -> list[float]:
    """The 15 distinct values of E2M1, as floats, sorted from -6 to 6.

    Decode all 16 codes of the format (2 exponent bits with bias 1, 1 mantissa bit, no
    inf or NaN) with the rules at the top; +0 and -0 are the same value.

    The lecture's list: [-6, -4, -3, -2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, 3, 4, 6].
    """
    raise NotImplementedError("dtypes.nvfp4_values")


def nvfp4_nbytes(numel: int, block_size: int = 16) -> float:
    """Storage of ``numel`` values in NVFP4, in bytes (a float: 4-bit values make half bytes).

    0.5 byte per value (4 bits), plus one 1-byte E4M3 scale per block of
    ``block_size`` values (a short last block needs its scale too), plus one 4-byte
    float32 scale for the whole tensor. ``numel`` or ``block_size`` below 1 raises
    ``ValueError``.

    Examples: 16 values -> 8 + 1 + 4 = 13.0 bytes (6.5 bits a value, not 4);
    17 values -> 8.5 + 2 + 4 = 14.5.
    """
    raise NotImplementedError("dtypes.nvfp4_nbytes")


def nvfp4_quantize(x: torch.Tensor, block_size: int = 16) -> torch.Tensor:
    """Fake-quantize a 1-D float32 tensor to NVFP4 and back: the values the format can store.

    Cut ``x`` into blocks of ``block_size`` consecutive values (the last block may be
    shorter). For each block:
        amax  = the largest |value| in the block
        scale = amax / 6, a float32 (6 is E2M1's max, so the block's largest value maps to ±6)
        each value: x / scale, clamped to [-6, 6], rounded to the nearest E2M1 value
        (``nvfp4_values``), then multiplied by ``scale`` again.
    A block whose scale is 0 stays all zeros: an all-zero block, and one so tiny that
    amax / 6 rounds to 0 in float32 (don't divide by a zero scale). A value exactly
    halfway between two E2M1 values goes to the one with mantissa bit 0, as a
    hardware cast does: 0.25 -> 0, 0.75 -> 1, 1.25 -> 1, 1.75 -> 2, 2.5 -> 2,
    3.5 -> 4, 5 -> 4. (Hint: between 0 and 2 the values are 0.5 apart, between 2
    and 4 1 apart, between 4 and 6 2 apart; ``torch.round`` rounds half to even.)

    Return a float32 tensor of the same length: the dequantized values. A tensor that
    is not 1-D float32, or a ``block_size`` below 1, raises ``ValueError``.

    Example, block_size 4:
        x      = [6.0, 2.5, -0.25, 0.8,   1.0, 3.0, -0.5, 0.4,   0.0, 0.0]
        scales =  1.0 (amax 6)            0.5 (amax 3)           0 (all zero, short block)
        result = [6.0, 2.0, -0.0, 1.0,    1.0, 3.0, -0.5, 0.5,   0.0, 0.0]
    (2.5 is a tie and goes to 2; 0.4 / 0.5 = 0.8 rounds to 1, so 0.4 comes back as 0.5.)
    """
    raise NotImplementedError("dtypes.nvfp4_quantize")
