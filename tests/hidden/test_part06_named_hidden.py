"""Part 6, hidden — attention, split and merge in float64, bfloat16 and float16 (assignment/named.py).

The public tensors are float32 but for one float64 example each of attention_scores and
split_heads. The annotations say ``Float``: any floating dtype, and nothing in the spec
turns one dtype into another, so every result must keep its
inputs' dtype, and its precision. Here the inputs are float64 (standard normal times
10**e), or bfloat16 and float16 holding small integers times a power of two (every
product and every sum of up to 8 of them is exact in 16 bits, so only the division by
sqrt(dim) rounds). bfloat16's powers reach 2**±12: products up to 2**28, far past
float16's 65504, so a bfloat16 computed through float16 overflows (or, small, underflows).

Compared as in the public tests, with the inputs' own dtype: split_heads and merge_heads
exactly (they move numbers, never round them); each attention score within
4·(dim+2)·(eps·S + tiny) with S = sum |q|·|k| / sqrt(dim) and eps, tiny of the inputs'
dtype (2.2e-16 for float64): a few roundings per term in that dtype. A scale rounded to
float32 (``torch.sqrt(torch.tensor(dim))`` is a float32 tensor) is off by up to 6e-8
relative, millions of float64 roundings. That allowance is about what bfloat16 rounds
away once, so float16 inputs also come with a pair whose every score is exact in float16
(full 11-bit q, one ±2**j per k row, dim 1 or 4), compared exactly: float16 computed in
bfloat16 loses bits there.
"""

import math

import torch
from hypothesis import strategies as st

from grader.harness.cases import example, given
from grader.harness.schema import Tensor
from tests.test_part06_named import attention_scores, check_attention_scores, checked, merge_heads, split_heads

DTYPES = [torch.float64, torch.bfloat16, torch.float16]
axis = st.integers(1, 9)  # batch, sequences and heads past the public tests' 1..4 (a lazy answer sized to them)
head_dim = st.integers(1, 8)


@st.composite
def tensors(draw, shape: tuple[int, ...], dtype: torch.dtype) -> torch.Tensor:
    """float64: standard normal times 10**e; 16-bit: integers -4..4 times 2**e, exact in the dtype (bfloat16's
    e in -12..12, float16's in -4..4: its sums of products stay below 65504)."""
    generator = torch.Generator().manual_seed(draw(st.integers(0, 2**31 - 1)))
    if dtype == torch.float64:
        return torch.randn(shape, generator=generator, dtype=torch.float64) * 10.0 ** draw(st.integers(-2, 2))
    power = draw(st.integers(-12, 12) if dtype == torch.bfloat16 else st.integers(-4, 4))
    return (torch.randint(-4, 5, shape, generator=generator) * 2.0 ** power).to(dtype)


@st.composite
def float16_exact_cases(draw):
    """float16 q and k whose every score is exact in float16, each q value using all 11 of its significant
    bits: dim 1 or 16 (sqrt(dim) is 1 or 4, and dim**-0.25 is 1 or 0.5: a scale split between q and k, as
    some code does, is exact too), and each k row one ±2**j among zeros, so a score is one product
    q·k / sqrt(dim), exact in float16 and in any order of computing it. bfloat16 (8 bits) cannot hold such q."""
    generator = torch.Generator().manual_seed(draw(st.integers(0, 2**31 - 1)))
    batch, seq_q, seq_k, heads = (draw(axis) for _ in range(4))
    dim = draw(st.sampled_from([1, 16]))
    odd = torch.randint(512, 1024, (batch, seq_q, heads, dim), generator=generator) * 2 + 1  # 1025..2047, odd
    sign = torch.randint(0, 2, odd.shape, generator=generator) * 2 - 1
    q = (sign * odd * 2.0 ** draw(st.integers(-12, -6))).to(torch.float16)
    hot = torch.randint(0, dim, (batch, seq_k, heads), generator=generator)
    power = 2.0 ** torch.randint(-2, 3, hot.shape, generator=generator)
    k = torch.nn.functional.one_hot(hot, dim) * (power * (torch.randint(0, 2, hot.shape, generator=generator) * 2 - 1)
                                                 ).unsqueeze(-1)
    return q, k.to(torch.float16)


@st.composite
def typed_cases(draw):
    """(q, k, x, num_heads, split, exact), all of one drawn dtype: one call of each function; with float16, also
    q and k whose every score float16 holds exactly (``float16_exact_cases``), else None."""
    dtype = draw(st.sampled_from(DTYPES))
    batch, seq_q, seq_k, heads = (draw(axis) for _ in range(4))
    dim = draw(head_dim)
    q = draw(tensors((batch, seq_q, heads, dim), dtype))
    k = draw(tensors((batch, seq_k, heads, dim), dtype))
    x = draw(tensors((batch, seq_q, heads * draw(head_dim)), dtype))
    split = draw(tensors((batch, heads, seq_q, draw(head_dim)), dtype))
    return q, k, x, heads, split, draw(float16_exact_cases()) if dtype == torch.float16 else None


def check_float16_precision(impl, oracle, q, k):
    """Every score here is exact in float16 however it is computed in float16 (or wider): any error is a
    computation in fewer bits. The comparison above allows a few float16 roundings per term, about what
    bfloat16 rounds away once, so it cannot tell the two apart; this can."""
    batch, seq_q, heads, dim = q.shape
    answers = checked(impl, oracle, attention_scores, q, k,
                      returns=Tensor(torch.float16, (batch, heads, seq_q, k.shape[1])))
    # a wrong scale (right on the head sizes drawn above) is one factor in every score, far from 1; bits lost to
    # bfloat16 move a score (one product here) by at most 2**-8 of itself, score by score
    got, expected = answers.got.double(), answers.expected.double()
    ratios = got[expected != 0] / expected[expected != 0]
    if len(ratios) and (ratios - ratios[0]).abs().max() <= 1e-3 * abs(ratios[0]) and abs(ratios[0] - 1) > 0.05:
        answers.require(False, f"every score is {ratios[0]:.4g} times what it should be, with dim={dim}: a constant "
                        "factor, not lost bits. Divide q·kᵀ by sqrt(dim), dim the size of the last axis, whatever "
                        "it is", got=answers.got, expected=answers.expected)
    answers.elementwise(0.0, "compared exactly: each score is one product, exact in float16",
                        "wrong value for float16 inputs whose every score float16 holds exactly: the scores lost "
                        "bits float16 keeps (computed in bfloat16, or another dtype with fewer than 11 significant "
                        "bits?); compute in the inputs' dtype or wider")


def _wide(dtype):
    """Every axis past the public tests' at once: batch 7, 9 queries, 6 keys, 6 heads of 5; values -3..3."""
    def values(*shape):
        return (torch.arange(math.prod(shape), dtype=torch.float64).reshape(shape) % 7 - 3).to(dtype)
    return values(7, 9, 6, 5), values(7, 6, 6, 5).flip(0), values(7, 9, 6 * 3), 6, values(7, 6, 9, 4), None


def _lecture(dtype, dim=5, power=0):
    """The lecture's shapes (2, 3, 8 heads, dim), with a head size that is no perfect square: sqrt(5) rounds;
    values -3..3 times 2**power."""
    values = ((torch.arange(2 * 3 * 8 * dim, dtype=torch.float64).reshape(2, 3, 8, dim) % 7 - 3) * 2.0**power
              ).to(dtype)
    exact = (torch.tensor([[[[1.0 + 2.0**-10]]]], dtype=dtype), torch.ones(1, 1, 1, 1, dtype=dtype)) \
        if dtype == torch.float16 else None  # bfloat16 rounds 1 + 2**-10 to 1
    return values, values.flip(1), values.reshape(2, 3, 8 * dim), 8, values.transpose(1, 2).contiguous(), exact


@given(case=typed_cases())
@example(case=_lecture(torch.float64))
@example(case=_lecture(torch.bfloat16))
@example(case=_lecture(torch.bfloat16, power=10))  # scores up to 45·2**20/sqrt(5): past float16's range
@example(case=_lecture(torch.float16))
@example(case=_wide(torch.float64))
def test_other_float_dtypes(impl, oracle, case):
    q, k, x, num_heads, split, exact = case
    check_attention_scores(impl, oracle, q, k)
    if exact is not None:
        check_float16_precision(impl, oracle, *exact)
    batch, seq, model = x.shape
    checked(impl, oracle, split_heads, x, num_heads,
            returns=Tensor(x.dtype, (batch, num_heads, seq, model // num_heads))).same()
    batch, heads, seq, dim = split.shape
    checked(impl, oracle, merge_heads, split, returns=Tensor(split.dtype, (batch, seq, heads * dim))).same()
