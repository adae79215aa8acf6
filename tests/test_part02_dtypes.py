"""Part 2 — number formats (assignment/dtypes.py).

Byte counts, flags and format limits are compared exactly: every limit of a
binary format is a power of two or a sum of two, which a float holds exactly.
NVFP4 quantization is compared value by value; see ``check_nvfp4_quantize``.
Questions whose inputs are a fixed set (the five dtypes, the E2M1 values) are
checked in the handout against fingerprints of the answers, not the answers.
"""

import numpy
import torch

from grader.harness import spec
from grader.harness.ask import ask
from grader.harness.cases import example, given
from grader.harness.digest import EXACT_SECRET
from grader.harness.probes.part02 import format_limits_of, nvfp4_band
from grader.harness.schema import Tensor
from tests.strategies import part02 as S

float_format = spec.function("dtypes.float_format", secret=EXACT_SECRET)
FP4_E2M1 = spec.constant("dtypes.FP4_E2M1", secret=EXACT_SECRET)
bytes_per_element = spec.function("dtypes.bytes_per_element", secret=EXACT_SECRET)
tensor_nbytes = spec.function("dtypes.tensor_nbytes")
underflows_to_zero = spec.function("dtypes.underflows_to_zero")
nvfp4_values = spec.function("dtypes.nvfp4_values", secret=EXACT_SECRET)
nvfp4_nbytes = spec.function("dtypes.nvfp4_nbytes")
nvfp4_quantize = spec.function("dtypes.nvfp4_quantize")
FORMAT_LIMITS = spec.record_schema("dtypes", "FormatLimits")


@given(dtype=S.float_dtypes)
@example(dtype=torch.bfloat16)
def test_float_format(impl, oracle, dtype):
    ask(impl, oracle, float_format, dtype).same()


@given(layout=S.layouts)
@example(layout=(5, 10, "ieee"))
@example(layout=(4, 3, "nan_only"))
@example(layout=(2, 1, "none"))
def test_format_limits(impl, oracle, layout):
    """``layout`` is (exponent_bits, mantissa_bits, special), built into your FloatFormat."""
    ask(impl, oracle, format_limits_of, *layout, returns=FORMAT_LIMITS).same()


def test_fp4_e2m1(impl, oracle):
    ask(impl, oracle, FP4_E2M1).same()


@given(case=S.nbytes_cases)
@example(case=((12288, 49152), torch.float32))
@example(case=((), torch.bool))
@example(case=((3**17, 3**17 + 2, 5), torch.float32))  # past 2**53 elements, odd: exact integers, not floats
def test_bytes_per_element_and_nbytes(impl, oracle, case):
    shape, dtype = case
    ask(impl, oracle, bytes_per_element, dtype).same()
    ask(impl, oracle, tensor_nbytes, shape, dtype).same()


@given(case=S.underflow_cases())
@example(case=(1e-8, torch.float16))
@example(case=(1e-8, torch.bfloat16))
@example(case=(1e-7, torch.float16))  # a float16 subnormal (above half the smallest, 2^-25): it does not underflow
@example(case=(2.0 ** -25 * 1.5, torch.float16))  # below the smallest subnormal, above half of it: rounds up to it
@example(case=(2.0 ** -25 * (1 + 2.0 ** -30), torch.float16))  # above the tie by less than a float32 can hold
# ... by less than math.log2 can tell: log2 of it is the tie's, -25.0 (and -134.0 for bfloat16)
@example(case=(2.0 ** -25 * (1 + 2.0 ** -50), torch.float16))
@example(case=(2.0 ** -134 * (1 + 2.0 ** -47), torch.bfloat16))
def test_underflows_to_zero(impl, oracle, case):
    """Exactly: a value just above half the smallest subnormal rounds up, however close. (Cast by torch,
    such a value is first rounded to a float32, which may be the tie itself, and the tie then goes to 0.)"""
    answers = ask(impl, oracle, underflows_to_zero, *case)
    value, dtype = case
    info = torch.finfo(dtype)
    tie = info.smallest_normal * info.eps / 2
    # the one wrong answer this explains: a value a float32 cast turns into the tie itself
    if abs(value) > tie and float(numpy.float32(abs(value))) == tie and answers.got != answers.expected:
        answers.fail(f"wrong answer for {value!r}, which is no float32: it lies above half the smallest subnormal "
                     f"({tie!r}) by less than float32 can tell, so it rounds up to "
                     "the subnormal. Cast by torch it is rounded to a float32 first (the tie itself), then the tie "
                     "to 0: round once, comparing the exact value with half the smallest subnormal")
    answers.same()


def test_nvfp4_values(impl, oracle):
    ask(impl, oracle, nvfp4_values).same()


@given(case=S.nvfp4_nbytes_cases)
@example(case=(16, None))
@example(case=(17, None))
def test_nvfp4_nbytes(impl, oracle, case):
    """Half bytes are exact in a float, so exactly. ``block_size`` None: its default."""
    numel, block_size = case
    ask(impl, oracle, nvfp4_nbytes, *((numel,) if block_size is None else case)).same()


@given(case=S.quantize_cases())
@example(case=(torch.tensor([6.0, 2.5, -0.25, 0.8, 1.0, 3.0, -0.5, 0.4, 0.0, 0.0]), 4))
@example(case=(torch.tensor([2.5, -6.0, 1.0, -0.5]), 4))  # the largest magnitude negative: amax of |x|, not of x
# a tiny block (scale 2^-100): an epsilon added to the scale against 0 / 0 (scale + 1e-12) flushes it to zeros
@example(case=(torch.tensor([6.0, 2.5, -0.25, 1.25]) * 2.0**-100, 4))
# blocks whose scale amax / 6 is subnormal in float32 (a floor on the scale, float32's tiny, moves them all)
@example(case=(torch.tensor([6.0, 2.5, -1.0, 0.5, 3e-39 * 2.0**128, 1e-39 * 2.0**128, -2e-39 * 2.0**128, 0.0])
               * 2.0**-128, 4))
# just above three rounding midpoints, by half a float16 ulp: x / scale rounded through float16 first lands on
# the midpoint and then ties down (2.5 + 2^-10 -> 2.5 -> 2.0, where 3.0 is nearest)
@example(case=(torch.tensor([6.0, 2.5 + 2.0**-10, 5.0 + 2.0**-9, -(1.25 + 2.0**-11)]), 4))
# a hair off three midpoints with a scale of exactly 1 (no slack there): a tie taken within a tolerance
# (torch.isclose) rounds them to even, 2.5 + 2^-20 -> 2, where 3 is nearest
@example(case=(torch.tensor([6.0, 2.5 + 2.0**-20, 5.0 + 2.0**-19, 0.75 - 2.0**-22]), 4))
# blocks deep in float32's subnormals: the scale rounds (to 2^-149 for amax 7·2^-149, so x / scale is 7, past
# the grid's 6: clamp it, the negative block's to -6 too), or rounds to 0 with a nonzero amax (0 / 0 where only
# amax is guarded); in float64 the scale would not round at all
@example(case=(torch.tensor([7.0, 1.0, -7.0, 1.0]) * 2.0**-149, 2))
@example(case=(torch.tensor([3.0 * 2.0**-149, 0.0, -(2.0**-149), 6.0, 1.0]), 3))
@example(case=(torch.tensor([1e-40, 5e-41]), None))
@example(case=(torch.tensor([]), None))  # no values, no blocks
def test_nvfp4_quantize(impl, oracle, case):
    check_nvfp4_quantize(impl, oracle, *case)


# --------------------------------------------------------------------------- NVFP4 comparison
ULPS = 2.0**-21  # 4 float32 ulps, relative: room for computing the scale in another order
HOW = ("compared to 4 float32 ulps; where x / scale is within 2^-20 of a rounding midpoint "
       "and the scale is not a power of two, either neighbour is accepted")


def check_nvfp4_quantize(impl, oracle, x, block_size=None):
    """Each value must equal the reference's, to 4 float32 ulps (the scale may be computed
    as amax / 6 or 6 / amax, the product in another order), but in a block whose amax / 6
    is subnormal in float32: there the spec's amax / 6, kept in float32, is the scale (it
    may round to zero, and the block stays zero), and another order rounds elsewhere.

    One allowance: where the exact x / scale lies within 2^-20 (relative) of a midpoint
    between two E2M1 values, float32 rounding of x / scale decides the side, and a
    different order of operations may land on the other one; there either neighbour is
    accepted (the judge ``nvfp4_band`` says where). Not so in blocks whose scale is a power
    of two: there every operation is exact, and a tie must go to the even mantissa bit.
    """
    size = block_size or 16
    args = (x,) if block_size is None else (x, block_size)
    answers = ask(impl, oracle, nvfp4_quantize, *args, returns=Tensor(torch.float32, shape=tuple(x.shape)))
    answers.check()
    band = oracle.run(nvfp4_band, x, size)
    g, e = answers.got.to(torch.float64), answers.expected.to(torch.float64)
    ok = _close(g, e) | (band.near & (_close(g, band.low) | _close(g, band.high)))
    if bool(ok.all()):
        return
    bad = (~ok).nonzero().reshape(-1)
    i = int(bad[0])
    block = x[i - i % size: i - i % size + size]
    scale = block.abs().max().to(torch.float32) / 6
    note = f" (amax / 6 in float32 is {scale.item():.9g}, below float32's smallest normal: the scale is exactly " \
        "that, amax / 6 kept in float32, zero included; amax * (1 / 6) or 6 / amax round otherwise here)" \
        if 0 <= scale.item() < torch.finfo(torch.float32).tiny and bool(block.abs().max() > 0) else ""
    # a magnitude past the block's amax (beyond 6 * scale's rounding): x / scale went past 6 unclamped, whatever
    # the scale (which may be right)
    if bool(answers.got[i].abs().double() > block.abs().max().double() * (1 + 2**-20)) and bool(scale > 0):
        note = f" (returned a magnitude above the block's amax: x / scale, here {(x[i] / scale).item():.9g}, must be " \
            "clamped to [-6, 6] after dividing and before rounding)"
    if len(block) < size:  # the last block, short: what it was padded with is in its amax unless zeros
        note = f" (the last block, {len(block)} elements where block_size is {size}: its amax is of those " \
            "elements alone; a block padded with anything but zeros has another)" + note
    answers.require(False, f"wrong value at {bad.numel()} of {x.numel()} positions; first at index {i}: "
                    f"x[{i}] = {x[i].item():.9g} in a block with amax {block.abs().max().item():.9g}{note}, "
                    f"returned {answers.got[i].item():.9g}, expected {answers.expected[i].item():.9g}",
                    got=answers.got, expected=answers.expected, how=HOW)


def _close(got, want):
    return (got - want).abs() <= ULPS * want.abs()
