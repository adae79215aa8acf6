"""Inputs for Part 2: dtypes, bit layouts, values near underflow, NVFP4 blocks.

Values that must round one way or the other are drawn where rounding is decided:
around half the smallest subnormal for underflow, and on and around the midpoints
between E2M1 values for NVFP4, with block scales that are powers of two so that
those midpoints are hit exactly.
"""

from __future__ import annotations


import numpy as np
import torch
from hypothesis import strategies as st

TORCH_FORMATS = {  # dtype -> (exponent bits, mantissa bits, special)
    torch.float32: (8, 23, "ieee"),
    torch.float16: (5, 10, "ieee"),
    torch.bfloat16: (8, 7, "ieee"),
    torch.float8_e4m3fn: (4, 3, "nan_only"),
    torch.float8_e5m2: (5, 2, "ieee"),
}
FLOAT_DTYPES = list(TORCH_FORMATS)
NAMED_LAYOUTS = [*TORCH_FORMATS.values(), (2, 1, "none"), (11, 52, "ieee"), (3, 2, "ieee")]

ORDINARY_DTYPES = [
    torch.float64, torch.float32, torch.float16, torch.bfloat16,
    torch.float8_e4m3fn, torch.float8_e5m2,
    torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool,
    torch.complex64, torch.complex128,
    # beyond the docstring's list: any dtype, as element_size() says (a table of the ones above is not enough)
    torch.uint16, torch.uint32, torch.uint64, torch.float8_e4m3fnuz, torch.float8_e5m2fnuz, torch.float8_e8m0fnu,
]
# ... and every other dtype this torch has, found here (so no list of them is a table to copy), but those whose
# tensors warn when made (complex32, the quantized ones), which would clutter a student's run
WARNS = {torch.complex32, torch.qint8, torch.qint32, torch.quint8, torch.quint4x2, torch.quint2x4}
OTHER_DTYPES = sorted({d for d in vars(torch).values() if isinstance(d, torch.dtype)} - set(ORDINARY_DTYPES) - WARNS,
                      key=str)
any_dtypes = st.one_of(st.sampled_from(ORDINARY_DTYPES), st.sampled_from(OTHER_DTYPES))

float_dtypes = st.sampled_from(FLOAT_DTYPES)


# --------------------------------------------------------------------------- layouts
@st.composite
def random_layouts(draw):
    """(exponent_bits, mantissa_bits, special) of any valid format."""
    special = draw(st.sampled_from(["ieee", "nan_only", "none"]))
    # a non-ieee format with 11 exponent bits would have a max beyond a Python float
    exponent_bits = draw(st.integers(2, 11 if special == "ieee" else 10))
    return exponent_bits, draw(st.integers(1, 52)), special


layouts = st.one_of(st.sampled_from(NAMED_LAYOUTS), random_layouts())


# --------------------------------------------------------------------------- sizes
sizes = st.one_of(st.sampled_from([0, 0, 1, 2, 3]), st.integers(0, 5000))
# a few large ones (GPT-3's matrices, a stack of 96), kept well inside what int64 and meta tensors hold
# ... and past 2**53 elements (odd counts no float64 holds), below 2**63 bytes for every dtype drawn
large_shapes = st.sampled_from([(12288, 49152), (49152, 12288), (96, 12288, 49152), (50257, 12288),
                                (3**17, 3**17 + 2, 5), (2**27 + 1, 2**27 + 3)])
shapes = st.one_of(st.lists(sizes, max_size=4).map(tuple), large_shapes)
nbytes_cases = st.tuples(shapes, any_dtypes)


# --------------------------------------------------------------------------- underflow
@st.composite
def underflow_cases(draw):
    """(value, dtype): values at, just around, and far from half the smallest subnormal.

    Mostly values exactly a float32; and for the narrow dtypes, "past": values just above
    the tie by less than float32 can tell (torch's cast rounds them to the tie first, and
    the tie to 0: the double rounding the docstring warns of), which round up exactly.
    """
    dtype = draw(float_dtypes)
    info = torch.finfo(dtype)
    half = info.smallest_normal * info.eps / 2  # half the smallest subnormal
    where = draw(st.sampled_from(["tie", "near", "near", "wide", "far", "past"]))
    if where == "past" and dtype != torch.float32:
        return half * (1 + 2.0 ** -draw(st.integers(25, 50))) * draw(st.sampled_from([1, -1])), dtype
    if where == "tie":
        factor = draw(st.sampled_from([1.0, 2.0, 0.5]))
    elif where == "near":  # just either side of the tie
        factor = 1 + draw(st.sampled_from([-1, 1])) * 2.0 ** -draw(st.integers(1, 12))
    elif where == "wide":  # log-uniform over 20 binades around the tie
        factor = 2.0 ** draw(st.floats(-10, 10))
    else:
        factor = draw(st.sampled_from([1e-8, 1e-3, 1.0, 1e4])) / half
    value = half * factor
    if dtype != torch.float32:
        value = float(np.float32(value))
    return value * draw(st.sampled_from([1, -1])), dtype


# --------------------------------------------------------------------------- NVFP4
E2M1_GRID = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]
E2M1_MIDPOINTS = [0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0]

nbytes_numel = st.one_of(st.integers(1, 100), st.integers(1, 10**12))
nvfp4_nbytes_cases = st.tuples(
    nbytes_numel, st.one_of(st.none(), st.sampled_from([16, 32, 1]), st.integers(1, 64)))

signs = st.sampled_from([1.0, -1.0])
# long lists are what make hypothesis slow: one draw per value, from a signed table
SIGNED_TIES = [sign * v for v in E2M1_MIDPOINTS * 2 + E2M1_GRID for sign in (1.0, -1.0)]
SIGNED_MIDPOINTS = [sign * v for v in E2M1_MIDPOINTS for sign in (1.0, -1.0)]


def _picks(table: list[float], size: int) -> st.SearchStrategy:
    return st.lists(st.sampled_from(table), min_size=size, max_size=size)


@st.composite
def random_block(draw, size: int):
    """Multiples of 2^-12 in [-1, 1] (so 0 or at least 2^-12) times a random block scale."""
    scale = 2.0 ** draw(st.integers(-10, 10)) * draw(st.floats(1.0, 2.0))
    steps = draw(st.lists(st.integers(-4096, 4096), min_size=size, max_size=size))
    return [k / 4096 * scale for k in steps]


@st.composite
def tie_block(draw, size: int):
    """E2M1 values and midpoints times 2^k, with one value pinned to ±6·2^k: the block's
    scale is then exactly 2^k, so x / scale lands exactly on the midpoints."""
    scale = 2.0 ** draw(st.integers(-8, 8))
    block = [v * scale for v in draw(_picks(SIGNED_TIES, size))]
    block[draw(st.integers(0, size - 1))] = draw(signs) * 6.0 * scale
    return block


@st.composite
def odd_scale_tie_block(draw, size: int):
    """Midpoints times a scale that is not a power of two (amax = 6·1.5·2^k)."""
    scale = 1.5 * 2.0 ** draw(st.integers(-4, 4))
    block = [v * scale for v in draw(_picks(SIGNED_MIDPOINTS, size))]
    block[draw(st.integers(0, size - 1))] = 6.0 * scale
    return block


@st.composite
def near_tie_block(draw, size: int):
    """Midpoints times amax / 6 for an amax that is not 6·2^k, rounded to float32: x / scale
    is a hair off the midpoint, on a side that depends on the order of operations."""
    amax = float(np.float32(2.0 ** draw(st.integers(-4, 4)) * draw(st.floats(1.0, 2.0))))
    block = [v * amax / 6 for v in draw(_picks(SIGNED_MIDPOINTS, size))]
    block[draw(st.integers(0, size - 1))] = amax
    return block


def _tensor(values: list[float]) -> torch.Tensor:
    return torch.tensor(values, dtype=torch.float32).reshape(-1)


@st.composite
def full_random_blocks(draw):
    """(x, block_size or None): one to three full blocks of 16 random values."""
    blocks = draw(st.integers(1, 3))
    values = [v for _ in range(blocks) for v in draw(random_block(16))]
    return _tensor(values), draw(st.sampled_from([None, 16]))


def quantize_cases():
    """(x, block_size or None): random full blocks, or exact ties, zero blocks and short last
    blocks of any block size (every rule of the docstring, often)."""
    return st.one_of(full_random_blocks(), tie_and_short_block_cases())


@st.composite
def tie_and_short_block_cases(draw):
    """(x, block_size or None): exact ties, all-zero blocks, a short last block, any block size."""
    block_size = draw(st.one_of(st.sampled_from([16, 1, 2, 3, 32]), st.integers(1, 40)))
    lengths = [block_size] * draw(st.integers(0, 2))
    lengths.append(draw(st.integers(1, block_size)))  # the last block, often short
    values = []
    for length in lengths:
        kind = draw(st.sampled_from(["ties", "ties", "ties", "zeros", "odd_scale", "near_ties", "random"]))
        if kind == "zeros":
            values += [draw(st.sampled_from([0.0, -0.0]))] * length
        elif kind == "ties":
            values += draw(tie_block(length))
        elif kind == "odd_scale":
            values += draw(odd_scale_tie_block(length))
        elif kind == "near_ties":
            values += draw(near_tie_block(length))
        else:
            values += draw(random_block(length))
    default = block_size == 16 and draw(st.booleans())
    return _tensor(values), None if default else block_size
