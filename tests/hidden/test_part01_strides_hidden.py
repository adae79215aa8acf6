"""Part 1, hidden: views of layouts that real chains of torch ops produce.

The public tests draw layouts directly (up to 4 dims). Here torch itself builds
a tensor of up to 6 dims, then slices it with steps, transposes it and adds
size-1 dims, and the resulting layout must be viewed correctly: view of a
slice of a transpose, the case students meet in practice.
"""

import math

import torch
from hypothesis import strategies as st

from grader.harness import spec
from grader.harness.ask import ask
from grader.harness.cases import given
from tests.strategies.part01 import same_numel_shape

is_contiguous = spec.function("strides.is_contiguous")
view_strides = spec.function("strides.view_strides")


@st.composite
def chained_layouts(draw):
    shape = tuple(draw(st.lists(st.integers(1, 6), min_size=1, max_size=6)))
    x = torch.empty(shape)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["slice", "transpose", "unsqueeze", "permute"]))
        if op == "slice" and x.dim():
            dim = draw(st.integers(0, x.dim() - 1))
            size = x.shape[dim]
            start = draw(st.integers(0, max(size - 1, 0)))
            index = [slice(None)] * x.dim()
            index[dim] = slice(start, size, draw(st.integers(1, 3)))
            x = x[tuple(index)]
        elif op == "transpose" and x.dim() >= 2:
            a, b = draw(st.permutations(range(x.dim())))[:2]
            x = x.transpose(a, b)
        elif op == "unsqueeze" and x.dim() < 6:
            x = x.unsqueeze(draw(st.integers(0, x.dim())))
        elif op == "permute" and x.dim() >= 2:
            x = x.permute(*draw(st.permutations(range(x.dim()))))
    layout = (tuple(x.shape), x.stride())
    assert math.prod(layout[0]) == x.numel()
    return layout + (draw(same_numel_shape(layout[0])),)


@given(case=chained_layouts())
def test_chained_views(impl, oracle, case):
    shape, strides, new_shape = case
    ask(impl, oracle, is_contiguous, shape, strides).same()
    ask(impl, oracle, view_strides, shape, strides, new_shape).same()
