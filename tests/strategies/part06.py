"""Inputs for Part 6: small multi-head tensors, float32, random values of random magnitude.

Every axis is drawn separately (1..4, the head size 1..8) so that a pattern that
swaps two axes, or groups them in the wrong order, meets axes of different sizes.
Values come from a seeded generator: the tensors are too large for hypothesis to
draw element by element, and a seed shrinks just as well.
"""

import torch
from hypothesis import strategies as st

axis = st.integers(1, 4)
head_dim = st.integers(1, 8)


@st.composite
def tensors(draw, shape: tuple[int, ...]) -> torch.Tensor:
    """A float32 tensor: standard normal values times 10**e, e in -2..2."""
    generator = torch.Generator().manual_seed(draw(st.integers(0, 2**31 - 1)))
    scale = 10.0 ** draw(st.integers(-2, 2))
    return torch.randn(shape, generator=generator) * scale


@st.composite
def attention_cases(draw):
    """(q, k): q [batch seq_q heads dim], k [batch seq_k heads dim]."""
    batch, seq_q, seq_k, heads = (draw(axis) for _ in range(4))
    dim = draw(head_dim)
    return draw(tensors((batch, seq_q, heads, dim))), draw(tensors((batch, seq_k, heads, dim)))


@st.composite
def split_cases(draw):
    """(x, num_heads): x [batch seq heads*head_dim]."""
    batch, seq, heads = (draw(axis) for _ in range(3))
    return draw(tensors((batch, seq, heads * draw(head_dim)))), heads


@st.composite
def merge_cases(draw):
    """x [batch heads seq head_dim]."""
    batch, heads, seq = (draw(axis) for _ in range(3))
    return draw(tensors((batch, heads, seq, draw(head_dim))))


@st.composite
def annotation_cases(draw):
    """(batch, seq_q, seq_k, heads, dim): the sizes of well-shaped calls; the probe breaks them.

    Kept small: a rejection's message prints the tensor, which costs time per element.
    """
    return tuple(draw(st.integers(1, 3)) for _ in range(4)) + (draw(st.integers(1, 4)),)


@st.composite
def einops_cases(draw):
    """(q, k, x, num_heads, split): one call of each function."""
    q, k = draw(attention_cases())
    x, num_heads = draw(split_cases())
    return q, k, x, num_heads, draw(merge_cases())
