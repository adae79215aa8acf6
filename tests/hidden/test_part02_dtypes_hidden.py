"""Part 2, hidden — NVFP4 on long tensors, over float32's whole range (assignment/dtypes.py).

The public tensors hold one to three blocks whose values lie within 2^±12 of 1. Here a
tensor holds tens of blocks (block sizes 1..40, the last one often short), each of its
own kind (exact ties, an odd scale, near-ties, random values, all zeros) and its own
magnitude, anywhere from 2^-124 to 2^124: block indexing must hold up over many blocks,
and the arithmetic over every binade float32 has. Dividing x by scale = amax / 6, as the
spec says, stays within float32's range everywhere here; an equivalent-looking
``x * 6 / amax`` overflows to inf in the largest blocks.
Compared as in the public test (``check_nvfp4_quantize``: 4 float32 ulps, either
neighbour near a midpoint where the scale is not a power of two).
"""

import numpy as np
import torch
from hypothesis import strategies as st

from grader.harness.cases import example, given
from tests.strategies import part02 as S
from tests.test_part02_dtypes import check_nvfp4_quantize

# Binades a block's scale 2^k is drawn from. Every value stays a normal float32 (at least
# 2^-126) and every block's amax / 6 too, so that the scale is exact wherever the spec
# says it is; 6 * 2^124 is 1.3e38, below float32's largest 3.4e38.
LOWEST, HIGHEST = -124, 124
exponents = st.one_of(
    st.integers(-8, 8),  # where the public tests stay
    st.integers(LOWEST, HIGHEST),  # anywhere
    st.sampled_from([LOWEST, LOWEST + 1, HIGHEST - 1, HIGHEST]),  # the ends of the range
)
E2M1_TIES = np.array(S.SIGNED_TIES)
E2M1_MIDPOINTS = np.array(S.SIGNED_MIDPOINTS)


def block(kind: str, length: int, exponent: int, seed: int) -> list[float]:
    """One block of ``length`` values (the kinds of ``tests/strategies/part02.py``, at 2^exponent),
    its values picked by a seeded generator: hypothesis draws the block, not each value."""
    rng = np.random.default_rng(seed)
    where = int(rng.integers(0, length))
    sign = float(rng.choice([1.0, -1.0]))
    if kind == "zeros":
        return [sign * 0.0] * length
    if kind == "ties":  # amax pinned to 6 * 2^k: the scale is 2^k, x / scale lands on the midpoints
        scale = 2.0**exponent
        values = rng.choice(E2M1_TIES, length) * scale
        values[where] = sign * 6.0 * scale
    elif kind == "odd_scale":  # midpoints times a scale 1.5 * 2^k, amax 9 * 2^k
        scale = 1.5 * 2.0 ** min(exponent, HIGHEST - 1)
        values = rng.choice(E2M1_MIDPOINTS, length) * scale
        values[where] = 6.0 * scale
    elif kind == "near_ties":  # midpoints times amax / 6 for an amax that is not 6 * 2^k
        amax = float(np.float32(2.0 ** max(exponent, LOWEST + 3) * rng.uniform(1.0, 2.0)))
        values = rng.choice(E2M1_MIDPOINTS, length) * amax / 6
        values[where] = amax
    else:  # random: multiples of 2^-12 in [-1, 1] times a scale, so 0 or at least 2^-12 of it
        scale = 2.0 ** max(exponent, LOWEST + 14) * rng.uniform(1.0, 2.0)
        values = rng.integers(-4096, 4097, length) / 4096 * scale
    return [float(v) for v in values]


@st.composite
def long_quantize_cases(draw):
    """(x, block_size or None): tens of blocks of mixed kinds and magnitudes, the last often short."""
    block_size = draw(st.one_of(st.sampled_from([16, 1, 2, 3, 32]), st.integers(1, 40)))
    count = draw(st.one_of(st.integers(4, 16), st.integers(16, 64)))
    lengths = [block_size] * (count - 1) + [draw(st.integers(1, block_size))]
    values = []
    for length in lengths:
        kind = draw(st.sampled_from(["ties", "ties", "zeros", "odd_scale", "near_ties", "random", "random"]))
        values += block(kind, length, draw(exponents), draw(st.integers(0, 2**32 - 1)))
    default = block_size == 16 and draw(st.booleans())
    return torch.tensor(values, dtype=torch.float32), None if default else block_size


def _top_of_the_range() -> torch.Tensor:
    """Twenty blocks of 8: ties at 2^124 (x * 6 overflows float32 there), zeros, ties at 2^-124."""
    values = []
    for b in range(20):
        scale = 2.0 ** (124 if b % 3 == 0 else -124 if b % 3 == 1 else 0)
        values += [6.0 * scale, 1.5 * scale, -2.5 * scale, 3.0 * scale, 0.25 * scale, -5.0 * scale, 0.0, 1.0 * scale]
    values[8:16] = [0.0] * 8  # an all-zero block among them
    return torch.tensor(values[:-3], dtype=torch.float32)  # a short last block


@given(case=long_quantize_cases())
@example(case=(_top_of_the_range(), 8))
def test_nvfp4_quantize_long_tensors(impl, oracle, case):
    check_nvfp4_quantize(impl, oracle, *case)
