"""Part 2 — number formats (assignment/dtypes.py).

Byte counts, flags and format limits are compared exactly: every limit of a
binary format is a power of two or a sum of two, which a float holds exactly.
NVFP4 quantization is compared value by value; see ``check_nvfp4_quantize``.
"""

import math

import torch
from hypothesis import example, given

from grader.harness.door import describe_call
from grader.harness.expect import (
    BOOL, FLOAT, INT, STR, ListOf, RecordOf, Tensor, agree, agree_run, check,
)
from grader.harness.faults import Mismatch
from grader.harness.oracle import cases
from tests.strategies import part02 as S

FLOAT_FORMAT = RecordOf("FloatFormat", "dataclass", exponent_bits=INT, mantissa_bits=INT, special=STR)
FORMAT_LIMITS = RecordOf("FormatLimits", "dataclass", max=FLOAT, smallest_normal=FLOAT,
                         smallest_subnormal=FLOAT, eps=FLOAT)


@given(dtype=cases("dtypes.float_format", S.float_dtypes))
def test_float_format(impl, oracle, dtype):
    agree(impl, oracle, "dtypes.float_format", dtype, returns=FLOAT_FORMAT)


@given(layout=cases("dtypes.format_limits", S.layouts))
@example(layout=(5, 10, "ieee"))
@example(layout=(4, 3, "nan_only"))
def test_format_limits(impl, oracle, layout):
    """``layout`` is (exponent_bits, mantissa_bits, special), built into your FloatFormat."""
    agree_run(impl, oracle, "dtypes.format_limits_of", *layout, returns=FORMAT_LIMITS,
              subject="dtypes.format_limits")


def test_fp4_e2m1(impl, oracle):
    agree_run(impl, oracle, "constant", "dtypes.FP4_E2M1", returns=FLOAT_FORMAT,
              subject="dtypes.FP4_E2M1")


@given(case=cases("dtypes.tensor_nbytes", S.nbytes_cases))
@example(case=((12288, 49152), torch.float32))
def test_bytes_per_element_and_nbytes(impl, oracle, case):
    shape, dtype = case
    agree(impl, oracle, "dtypes.bytes_per_element", dtype, returns=INT)
    agree(impl, oracle, "dtypes.tensor_nbytes", shape, dtype, returns=INT)


@given(case=cases("dtypes.underflows_to_zero", S.underflow_cases()))
@example(case=(1e-8, torch.float16))
@example(case=(1e-8, torch.bfloat16))
def test_underflows_to_zero(impl, oracle, case):
    agree(impl, oracle, "dtypes.underflows_to_zero", *case, returns=BOOL)


def test_nvfp4_values(impl, oracle):
    agree(impl, oracle, "dtypes.nvfp4_values", returns=ListOf(FLOAT))


@given(case=cases("dtypes.nvfp4_nbytes", S.nvfp4_nbytes_cases))
@example(case=(16, None))
def test_nvfp4_nbytes(impl, oracle, case):
    """Half bytes are exact in a float, so exactly. ``block_size`` None: its default."""
    numel, block_size = case
    args = (numel,) if block_size is None else (numel, block_size)
    agree(impl, oracle, "dtypes.nvfp4_nbytes", *args, returns=FLOAT)


@given(case=cases("dtypes.nvfp4_quantize", S.quantize_cases()))
@example(case=(torch.tensor([6.0, 2.5, -0.25, 0.8, 1.0, 3.0, -0.5, 0.4, 0.0, 0.0]), 4))
def test_nvfp4_quantize(impl, oracle, case):
    check_nvfp4_quantize(impl, oracle, *case)


# --------------------------------------------------------------------------- NVFP4 comparison
QUANTIZE = "dtypes.nvfp4_quantize"
ULPS = 2.0**-21  # 4 float32 ulps, relative: room for computing the scale in another order
NEAR = 2.0**-20  # "near a midpoint", relative: well above any float32 rounding of x / scale
MIDPOINTS = torch.tensor(S.E2M1_MIDPOINTS, dtype=torch.float64)
BELOW = torch.tensor(S.E2M1_GRID[:-1], dtype=torch.float64)
ABOVE = torch.tensor(S.E2M1_GRID[1:], dtype=torch.float64)


def check_nvfp4_quantize(impl, oracle, x, block_size=None):
    """Each value must equal the reference's, to 4 float32 ulps (the scale may be computed
    as amax / 6 or 6 / amax, the product in another order).

    One allowance: where the exact x / scale lies within 2^-20 (relative) of a midpoint
    between two E2M1 values, float32 rounding of x / scale decides the side, and a
    different order of operations may land on the other one; there either neighbour is
    accepted. Not so in blocks whose scale is a power of two: there every operation is
    exact, and a tie must go to the even mantissa bit.
    """
    args = (QUANTIZE, x) if block_size is None else (QUANTIZE, x, block_size)
    size = block_size or 16
    expected = oracle.call(*args)
    got = impl.call(*args)
    inputs = describe_call("call", args)
    check(got, Tensor(torch.float32, shape=tuple(x.shape)), QUANTIZE, inputs)
    g, e = got.to(torch.float64), expected.to(torch.float64)
    low, high, near = _either_side(x, size)
    ok = _close(g, e) | (near & (_close(g, low) | _close(g, high)))
    if bool(ok.all()):
        return
    bad = (~ok).nonzero().reshape(-1)
    i = int(bad[0])
    block = x[i - i % size: i - i % size + size]
    raise Mismatch(
        QUANTIZE,
        f"wrong value at {bad.numel()} of {x.numel()} positions; first at index {i}: "
        f"x[{i}] = {x[i].item():.9g} in a block with amax {block.abs().max().item():.9g}, "
        f"returned {got[i].item():.9g}, expected {expected[i].item():.9g}",
        inputs=inputs, got=got, expected=expected,
        how="compared to 4 float32 ulps; where x / scale is within 2^-20 of a rounding midpoint "
            "and the scale is not a power of two, either neighbour is accepted",
    )


def _close(got, want):
    return (got - want).abs() <= ULPS * want.abs()


def _either_side(x, block_size):
    """Per value: the E2M1 neighbours around a nearby midpoint (dequantized), and whether
    the value is near one in a block whose scale is not a power of two."""
    n = x.numel()
    blocks = torch.nn.functional.pad(x.to(torch.float64), (0, -n % block_size)).view(-1, block_size)
    scale = blocks.abs().amax(dim=1, keepdim=True) / 6  # [blocks, 1]; float64: x / scale is near exact
    # a power-of-two scale (or none): every float32 operation on the block is exact
    exact = torch.tensor([[math.frexp(s)[0] in (0.0, 0.5)] for s in scale.reshape(-1).tolist()])
    r = (blocks / torch.where(scale > 0, scale, 1.0)).abs()
    close_to = (r.unsqueeze(-1) - MIDPOINTS).abs() <= NEAR * MIDPOINTS  # [blocks, size, 7]
    which = close_to.to(torch.int8).argmax(dim=-1)
    sign = torch.where(blocks < 0, -1.0, 1.0)
    low, high = sign * BELOW[which] * scale, sign * ABOVE[which] * scale
    near = close_to.any(dim=-1) & ~exact
    return tuple(t.reshape(-1)[:n] for t in (low, high, near))
