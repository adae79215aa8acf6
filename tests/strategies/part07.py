"""Inputs for Part 7: vectors and matrices in float32 and float64, values over six orders
of magnitude.

Each tensor gets its own scale 10**e (e in -3..3), so the terms of one sum can
differ by a factor of a million: a formula that only works near 1, or that loses
precision, shows. Small tensors are drawn element by element (hypothesis then
shrinks a failure to simple numbers such as 0, 1 and 2); larger ones from a seed.
Matrix sides run 1..5 so that non-square shapes, where a transposition bug shows,
are drawn most of the time.
"""

import math

import torch
from hypothesis import strategies as st

DTYPES = st.sampled_from([torch.float32, torch.float64])
SMALL = 36  # up to this many elements, drawn one by one
side = st.integers(1, 5)


@st.composite
def tensors(draw, shape: tuple[int, ...], dtype: torch.dtype) -> torch.Tensor:
    scale = 10.0 ** draw(st.integers(-3, 3))
    numel = math.prod(shape)
    if numel <= SMALL:
        width = 32 if dtype == torch.float32 else 64
        element = st.floats(-10, 10, width=width, allow_subnormal=False)
        values = draw(st.lists(element, min_size=numel, max_size=numel))
        base = torch.tensor(values, dtype=torch.float64).reshape(shape)
    else:
        generator = torch.Generator().manual_seed(draw(st.integers(0, 2**31 - 1)))
        base = torch.randn(shape, generator=generator, dtype=torch.float64)
    return (base * scale).to(dtype)


@st.composite
def squared_error_cases(draw, lengths=st.integers(1, 6)):
    """(x, w, target): x and w 1-D of one length and dtype, target a float. ``lengths`` draws the length."""
    n = draw(lengths)
    dtype = draw(DTYPES)
    target = draw(st.floats(-10, 10)) * 10.0 ** draw(st.integers(-3, 3))
    return draw(tensors((n,), dtype)), draw(tensors((n,), dtype)), target


@st.composite
def linear_cases(draw, sizes=None):
    """(x, w, grad_y): x [n, d_in], w [d_in, d_out], grad_y [n, d_out], one dtype.

    ``sizes`` draws (n, d_in, d_out); by default each is 1..5.
    """
    n, d_in, d_out = draw(sizes if sizes is not None else st.tuples(side, side, side))
    dtype = draw(DTYPES)
    return (draw(tensors((n, d_in), dtype)), draw(tensors((d_in, d_out), dtype)),
            draw(tensors((n, d_out), dtype)))


# shapes the public tests never draw: single elements, an empty batch, tall and wide
EXTREME_SIZES = st.sampled_from([
    (1, 1, 1),
    (0, 1, 1), (0, 3, 2), (0, 4, 4),
    (64, 1, 1), (48, 2, 3), (1, 64, 1),
    (1, 1, 64), (2, 3, 48), (1, 48, 2),
])


def extreme_linear_cases():
    return linear_cases(EXTREME_SIZES)


def long_squared_error_cases():
    """Vectors longer than the public tests' 6 (up to 300): a gradient right only on short ones shows."""
    return squared_error_cases(st.integers(7, 300))
