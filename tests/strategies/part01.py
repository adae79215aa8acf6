"""Inputs for Part 1: shapes and strided layouts, biased towards the awkward ones.

Layouts come in five flavours, because each exercises different code paths:
contiguous, contiguous with free strides on size-1 dims (as ``x[:, 2:3]``
makes), permuted (a chain of transposes), sliced (strides multiplied by a step,
as ``x[::k]`` makes) and arbitrary (including stride 0: overlapping elements, as
``expand`` makes). Sizes run 0..5 with 0 and 1 drawn often.
"""

from __future__ import annotations

import math

import torch
from hypothesis import strategies as st

MAX_DIMS = 4

sizes = st.one_of(st.sampled_from([0, 1, 1, 2]), st.integers(0, 5))


def shapes(min_dims: int = 0, max_dims: int = MAX_DIMS, nonempty: bool = False) -> st.SearchStrategy:
    size = st.integers(1, 5) if nonempty else sizes
    drawn = st.lists(size, min_size=min_dims, max_size=max_dims).map(tuple)
    return st.one_of(st.just(()), drawn) if min_dims == 0 else drawn  # a 0-d tensor, often


@st.composite
def strides_for(draw, shape: tuple[int, ...]) -> tuple[int, ...]:
    """Strides for ``shape`` of one of the four flavours."""
    flavour = draw(st.sampled_from(["contiguous", "free_ones", "permuted", "sliced", "arbitrary"]))
    # row-major strides as torch lays them out (the strategies never compute a graded answer themselves)
    row_major = torch.empty(shape).stride()
    if flavour == "contiguous" or not shape:
        return row_major
    if flavour == "free_ones":
        # row-major, except that size-1 dims get any stride (x[:, 2:3] makes such; 0 is a row of an expanded
        # tensor, x.expand(4, 3)[1:2], which the tests' examples hold)
        return tuple(draw(st.integers(0, 24)) if size == 1 else stride for size, stride in zip(shape, row_major))
    if flavour == "permuted":
        order = draw(st.permutations(range(len(shape))))
        base = torch.empty([shape[i] for i in order]).stride()
        strides = [0] * len(shape)
        for position, dim in enumerate(order):
            strides[dim] = base[position]
        return tuple(strides)
    if flavour == "sliced":
        steps = draw(st.lists(st.integers(1, 3), min_size=len(shape), max_size=len(shape)))
        return tuple(s * k for s, k in zip(row_major, steps))
    return tuple(draw(st.lists(st.integers(0, 24), min_size=len(shape), max_size=len(shape))))


@st.composite
def layouts(draw, min_dims: int = 0, max_dims: int = MAX_DIMS, nonempty: bool = False):
    """(shape, strides)."""
    shape = draw(shapes(min_dims, max_dims, nonempty))
    return shape, draw(strides_for(shape))


def _factors(n: int) -> list[int]:
    out, p = [], 2
    while p * p <= n:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    if n > 1:
        out.append(n)
    return out


@st.composite
def same_numel_shape(draw, shape: tuple[int, ...]) -> tuple[int, ...]:
    """Another shape with as many elements: regroup, split, or scatter the prime factors."""
    numel = math.prod(shape)
    ndims = draw(st.integers(0 if numel == 1 else 1, MAX_DIMS))
    if numel == 0:
        new = draw(st.lists(sizes, min_size=max(ndims, 1), max_size=max(ndims, 1)))
        new[draw(st.integers(0, len(new) - 1))] = 0
        return tuple(new)
    how = draw(st.sampled_from(["regroup", "scatter", "split"]))
    splittable = [i for i, size in enumerate(shape) if len(_factors(size)) > 1]
    if how == "split" and splittable:
        # one dim cut in two: a view torch can always make within a chunk
        i = draw(st.sampled_from(splittable))
        factors = _factors(shape[i])
        cut = draw(st.integers(1, len(factors) - 1))
        new = [*shape[:i], math.prod(factors[:cut]), math.prod(factors[cut:]), *shape[i + 1:]]
    elif how == "regroup" and shape:
        # merge runs of neighbouring dims: the views torch can usually make
        cuts = sorted(draw(st.sets(st.integers(1, len(shape) - 1), max_size=len(shape) - 1))) if len(shape) > 1 else []
        bounds = [0, *cuts, len(shape)]
        new = [math.prod(shape[a:b]) for a, b in zip(bounds, bounds[1:])]
    else:
        new = [1] * max(ndims, 1)
        for factor in _factors(numel):
            new[draw(st.integers(0, len(new) - 1))] *= factor
    # sprinkle size-1 dims, which never matter to a view
    while len(new) < MAX_DIMS and draw(st.booleans()):
        new.insert(draw(st.integers(0, len(new))), 1)
    return tuple(new)


@st.composite
def view_cases(draw):
    """(shape, strides, new_shape) with equal element counts."""
    shape, strides = draw(layouts())
    return shape, strides, draw(same_numel_shape(shape))


@st.composite
def flat_index_cases(draw):
    """(index, strides[, offset]); without the offset the call relies on its default (0)."""
    ndim = draw(st.integers(0, MAX_DIMS))
    index = tuple(draw(st.lists(st.integers(0, 9), min_size=ndim, max_size=ndim)))
    strides = tuple(draw(st.lists(st.integers(0, 60), min_size=ndim, max_size=ndim)))
    offset = draw(st.one_of(st.just(()), st.tuples(st.integers(0, 100))))
    return (index, strides, *offset)


@st.composite
def transpose_cases(draw):
    """(shape, strides, dim0, dim1), dims possibly negative."""
    shape, strides = draw(layouts(min_dims=1))
    dim = st.integers(-len(shape), len(shape) - 1)
    return shape, strides, draw(dim), draw(dim)


@st.composite
def slice_cases(draw):
    """(shape, strides, offset, dim, start, stop[, step]), bounds possibly out of range; without the step
    the call relies on its default (1)."""
    shape, strides = draw(layouts(min_dims=1))
    dim = draw(st.integers(-len(shape), len(shape) - 1))
    size = shape[dim]
    bound = st.integers(-2 * size - 2, 2 * size + 2)
    step = draw(st.one_of(st.just(()), st.tuples(st.integers(1, 4))))
    return (shape, strides, draw(st.integers(0, 50)), dim, draw(bound), draw(bound), *step)
