"""Staff check: the Part 2 reference agrees with torch and with brute force, and rejects bad arguments.

torch is the oracle where it has the format (``torch.finfo``, ``element_size``,
real casts); elsewhere every code of a small format is decoded by brute force,
and NVFP4 quantization is simulated value by value in numpy float32.
"""

import math

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from reference import dtypes as R
from tests.strategies import part02 as S

BITS_DTYPE = {1: torch.uint8, 2: torch.int16, 4: torch.int32}


@pytest.mark.parametrize("dtype", S.FLOAT_DTYPES, ids=str)
def test_format_limits_are_finfos(dtype):
    fmt = R.float_format(dtype)
    assert (fmt.exponent_bits, fmt.mantissa_bits, fmt.special) == S.TORCH_FORMATS[dtype]
    assert 1 + fmt.exponent_bits + fmt.mantissa_bits == torch.finfo(dtype).bits
    limits = R.format_limits(fmt)
    info = torch.finfo(dtype)
    assert limits.max == info.max
    assert limits.smallest_normal == info.smallest_normal
    assert limits.eps == info.eps
    code_one = torch.tensor([1], dtype=BITS_DTYPE[dtype.itemsize]).view(dtype)  # exponent 0, mantissa 0...01
    assert limits.smallest_subnormal == code_one.item()


def decode_all(e, m, special):
    """Every finite positive value of a format, decoded code by code."""
    bias = 2 ** (e - 1) - 1
    values = []
    for exponent in range(2**e):
        for mantissa in range(2**m):
            if special == "ieee" and exponent == 2**e - 1:
                continue  # inf and NaN
            if special == "nan_only" and exponent == 2**e - 1 and mantissa == 2**m - 1:
                continue  # NaN
            if exponent == 0:
                values.append(mantissa / 2**m * 2.0 ** (1 - bias))
            else:
                values.append((1 + mantissa / 2**m) * 2.0 ** (exponent - bias))
    return sorted(v for v in values if v > 0)


@given(st.integers(2, 5), st.integers(1, 5), st.sampled_from(["ieee", "nan_only", "none"]))
def test_format_limits_by_brute_force(e, m, special):
    values = decode_all(e, m, special)
    limits = R.format_limits(R.FloatFormat(e, m, special))
    one = values.index(1.0)
    assert limits.max == values[-1]
    assert limits.smallest_subnormal == values[0]
    assert limits.smallest_normal == values[2**m - 1]  # after the 2^m - 1 positive subnormals
    assert limits.eps == values[one + 1] - 1.0


@given(S.layouts)
def test_format_limits_fit_a_float(layout):
    limits = R.format_limits(R.FloatFormat(*layout))
    assert all(math.isfinite(v) and v > 0 for v in (limits.max, limits.smallest_normal,
                                                    limits.smallest_subnormal, limits.eps))


@given(S.nbytes_cases)
def test_bytes_are_element_size(case):
    shape, dtype = case
    assert R.bytes_per_element(dtype) == torch.empty(0, dtype=dtype).element_size()
    numel = math.prod(shape)
    if numel * 16 < 2**62:  # what a meta tensor can describe
        assert R.tensor_nbytes(shape, dtype) == torch.empty(shape, dtype=dtype, device="meta").nbytes


@given(S.underflow_cases())
def test_underflow_is_torchs_cast_where_torch_rounds_once(case):
    """Casting in torch rounds twice (via float32): where the value is a float32 both ways agree. A
    value just above the tie that no float32 holds (the strategy's "past") becomes the tie in float32,
    and then 0; exactly, it rounds up to the smallest subnormal (numpy's float16, one rounding, agrees)."""
    value, dtype = case
    if dtype == torch.float32 or float(np.float32(value)) == value:
        stored = torch.tensor([value], dtype=torch.float64).to(torch.float32) if dtype == torch.float32 \
            else torch.tensor([value], dtype=torch.float32).to(dtype)
        assert R.underflows_to_zero(value, dtype) == bool(stored == 0)
        # the lecture's own idiom gives the same answer on every such value
        assert R.underflows_to_zero(value, dtype) == bool(torch.tensor([value], dtype=dtype) == 0)
        return
    info = torch.finfo(dtype)
    assert abs(value) > info.smallest_normal * info.eps / 2 and not R.underflows_to_zero(value, dtype)
    assert bool(torch.tensor([value], dtype=torch.float64).to(dtype) == 0)  # what the test's hint says
    if dtype == torch.float16:
        assert np.float16(value) != 0


def test_nvfp4_values_are_the_lectures():
    assert R.nvfp4_values() == [-6, -4, -3, -2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, 3, 4, 6]
    assert all(type(v) is float for v in R.nvfp4_values())
    assert R.format_limits(R.FP4_E2M1).max == 6.0


@given(S.nvfp4_nbytes_cases)
def test_nvfp4_nbytes_counts_bits(case):
    numel, block_size = case
    block_size = block_size or 16
    bits = 4 * numel + 8 * math.ceil(numel / block_size) + 32
    assert R.nvfp4_nbytes(numel, block_size) == bits / 8


def simulate_nvfp4(x, block_size):
    """NVFP4 fake quantization in numpy float32, nearest value by brute force, tie to the
    even code (codes in order 0, 0.5, 1, 1.5, 2, 3, 4, 6: an even index is mantissa bit 0)."""
    grid = np.array(S.E2M1_GRID, dtype=np.float32)
    values = x.numpy()
    out = np.zeros_like(values)
    for start in range(0, len(values), block_size):
        block = values[start:start + block_size]
        scale = np.float32(np.abs(block).max()) / np.float32(6)
        if scale == 0:
            continue
        for i, v in enumerate(block):
            r = np.float32(min(max(v / scale, np.float32(-6)), np.float32(6)))
            distance = np.abs(grid - np.abs(r))
            nearest = np.flatnonzero(distance == distance.min())
            code = nearest[0] if len(nearest) == 1 else nearest[nearest % 2 == 0][0]
            out[start + i] = np.copysign(grid[code], r) * scale
    return torch.from_numpy(out)


@given(st.one_of(S.quantize_cases(), S.tie_and_short_block_cases()))
def test_nvfp4_quantize_by_simulation(case):
    x, block_size = case
    block_size = block_size or 16
    assert torch.equal(R.nvfp4_quantize(x, block_size), simulate_nvfp4(x, block_size))


def test_docstring_examples():
    assert R.float_format(torch.bfloat16) == R.FloatFormat(8, 7, "ieee")
    assert R.format_limits(R.FloatFormat(5, 10, "ieee")) == R.FormatLimits(
        65504.0, 6.103515625e-05, 5.960464477539063e-08, 0.0009765625)
    assert R.format_limits(R.FloatFormat(4, 3, "nan_only")).max == 448.0
    fp4 = R.format_limits(R.FloatFormat(2, 1, "none"))
    assert (fp4.max, fp4.smallest_subnormal) == (6.0, 0.5)
    assert R.FP4_E2M1 == R.FloatFormat(2, 1, "none")
    assert [R.bytes_per_element(d) for d in (torch.float32, torch.bfloat16, torch.float16,
                                              torch.float8_e4m3fn, torch.float8_e5m2,
                                              torch.int64, torch.bool, torch.complex64)] == [4, 2, 2, 1, 1, 8, 1, 8]
    assert R.tensor_nbytes((12288, 49152), torch.float32) == 2_415_919_104
    assert R.tensor_nbytes((), torch.float32) == 4
    assert R.underflows_to_zero(1e-8, torch.float16) is True
    assert R.underflows_to_zero(1e-8, torch.bfloat16) is False
    assert R.format_limits(R.float_format(torch.bfloat16)).smallest_subnormal == 2.0**-133
    assert (R.nvfp4_nbytes(16), R.nvfp4_nbytes(17)) == (13.0, 14.5)
    x = torch.tensor([6.0, 2.5, -0.25, 0.8, 1.0, 3.0, -0.5, 0.4, 0.0, 0.0])
    expected = torch.tensor([6.0, 2.0, -0.0, 1.0, 1.0, 3.0, -0.5, 0.5, 0.0, 0.0])
    assert torch.equal(R.nvfp4_quantize(x, 4), expected)
    ties = torch.tensor([6.0, 0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0])
    assert R.nvfp4_quantize(ties).tolist() == [6.0, 0.0, 1.0, 1.0, 2.0, 2.0, 4.0, 4.0]


@pytest.mark.parametrize("call", [
    lambda: R.float_format(torch.float64),
    lambda: R.float_format("float32"),
    lambda: R.format_limits(R.FloatFormat(1, 3, "ieee")),
    lambda: R.format_limits(R.FloatFormat(12, 3, "ieee")),
    lambda: R.format_limits(R.FloatFormat(4, 0, "ieee")),
    lambda: R.format_limits(R.FloatFormat(4, 53, "ieee")),
    lambda: R.format_limits(R.FloatFormat(4, 3, "fnuz")),
    lambda: R.format_limits(R.FloatFormat(11, 52, "none")),
    lambda: R.bytes_per_element("float32"),
    lambda: R.tensor_nbytes((2, -1), torch.float32),
    lambda: R.underflows_to_zero(0.0, torch.float16),
    lambda: R.underflows_to_zero(1e-8, torch.int8),
    lambda: R.nvfp4_nbytes(0),
    lambda: R.nvfp4_nbytes(16, 0),
    lambda: R.nvfp4_quantize(torch.zeros(4, 4)),
    lambda: R.nvfp4_quantize(torch.zeros(16, dtype=torch.float64)),
    lambda: R.nvfp4_quantize(torch.zeros(16), 0),
], ids=["float64 format", "string dtype", "1 exponent bit", "12 exponent bits", "0 mantissa bits",
        "53 mantissa bits", "unknown special", "max beyond a float", "string bytes", "negative size",
        "zero value", "int dtype", "no values", "block size 0", "2-d tensor", "float64 tensor",
        "quantize block size 0"])
def test_bad_arguments_raise_value_error(call):
    with pytest.raises(ValueError, match=r"\w"):
        call()
