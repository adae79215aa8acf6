"""Part 1, hidden: views of layouts that real chains of torch ops produce.

The public tests draw layouts directly (up to 4 dims). Here torch itself builds
a tensor of up to 6 dims, then slices it with steps (each slice asked of slice_view
too, with steps and bounds past the public tests'), transposes it, adds size-1
dims and broadcasts it (``expand``: stride 0 on a dim of any size, as a bias
broadcast over (batch, seq) has), and the resulting layout must be viewed
correctly: view of a slice of a transpose, the case students meet in practice,
and the flattening of broadcast dims (``bias.expand(B, S, D).view(B * S, D)``
needs no copy: dims of stride 0 next to each other are one block). The public
layouts hold stride 0 only where an arbitrary stride happens to be drawn 0.

Each layout is also asked of the other functions past the public tests' 4 dims: its shape's contiguous
strides, the flat index of its last element, and its transpose of the first and last dims.

Every answer is a bool, integers or None: compared exactly with the reference's (torch's).
"""

import math

import torch
from hypothesis import strategies as st

from grader.harness import spec
from grader.harness.ask import ask
from grader.harness.cases import example, given
from tests.strategies.part01 import same_numel_shape

contiguous_strides = spec.function("strides.contiguous_strides")
flat_index = spec.function("strides.flat_index")
transpose = spec.function("strides.transpose")
is_contiguous = spec.function("strides.is_contiguous")
view_strides = spec.function("strides.view_strides")
slice_view = spec.function("strides.slice_view")

MAX_DIMS = 6
OPS = ["slice", "transpose", "unsqueeze", "permute", "expand", "broadcast", "broadcast"]  # broadcasts often


@st.composite
def chained_layouts(draw):
    """(shape, strides, new_shape, slices): a layout a chain of torch ops made, a shape to view it as, and
    each slice of the chain as slice_view's arguments (steps up to 9, bounds out of range too: past the
    public slices' steps of at most 4, which a student can read)."""
    shape = tuple(draw(st.lists(st.integers(1, 8), min_size=1, max_size=MAX_DIMS)))
    x = torch.empty(shape)
    slices = []
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(OPS))
        if op == "slice" and x.dim():
            dim = draw(st.integers(0, x.dim() - 1))
            size = x.shape[dim]
            bound = st.integers(-size - 2, size + 2)
            start, stop, step = draw(bound), draw(bound), draw(st.integers(1, 9))
            slices.append((tuple(x.shape), x.stride(), x.storage_offset(), dim, start, stop, step))
            index = [slice(None)] * x.dim()
            index[dim] = slice(start, stop, step)
            x = x[tuple(index)]
        elif op == "transpose" and x.dim() >= 2:
            a, b = draw(st.permutations(range(x.dim())))[:2]
            x = x.transpose(a, b)
        elif op == "unsqueeze" and x.dim() < MAX_DIMS:
            x = x.unsqueeze(draw(st.integers(0, x.dim())))
        elif op == "permute" and x.dim() >= 2:
            x = x.permute(*draw(st.permutations(range(x.dim()))))
        elif op == "expand" and 1 in x.shape:  # a size-1 dim repeated: stride 0
            sizes = list(x.shape)
            sizes[draw(st.sampled_from([d for d, size in enumerate(sizes) if size == 1]))] = draw(st.integers(2, 4))
            x = x.expand(*sizes)
        elif op == "broadcast" and x.dim() < MAX_DIMS:  # over new leading dims, as a bias over (batch, seq)
            leading = draw(st.lists(st.integers(2, 4), min_size=1, max_size=min(2, MAX_DIMS - x.dim())))
            x = x.expand(*leading, *x.shape)
    layout = (tuple(x.shape), x.stride())
    assert math.prod(layout[0]) == x.numel()
    return layout + (draw(same_numel_shape(layout[0])), tuple(slices))


@given(case=chained_layouts())
@example(case=((2, 3, 4), (0, 0, 1), (6, 4), ()))  # bias.expand(2, 3, 4).view(6, 4): strides (0, 1)
@example(case=((4, 3), (0, 1), (12,), ()))  # x.expand(4, 3).view(12): torch needs a copy
# x[1:8:6] of an (8, 3) tensor, transposed, then its columns [0:9:5]: steps past the public ones
@example(case=((3, 1), (1, 90), (3,), (((8, 3), (3, 1), 0, 0, 1, 8, 6), ((3, 2), (1, 18), 3, 1, 0, 9, 5))))
@example(case=((2, 3, 1, 2, 1, 2), (12, 4, 4, 2, 2, 1), (6, 4), ()))  # six dims, contiguous
def test_chained_views(impl, oracle, case):
    shape, strides, new_shape, slices = case
    for sliced in slices:
        ask(impl, oracle, slice_view, *sliced).same()
    ask(impl, oracle, is_contiguous, shape, strides).same()
    ask(impl, oracle, view_strides, shape, strides, new_shape).same()
    ask(impl, oracle, contiguous_strides, shape).same()
    if 0 not in shape:  # (an empty slice has no last element)
        ask(impl, oracle, flat_index, tuple(size - 1 for size in shape), strides, 3).same()
    ask(impl, oracle, transpose, shape, strides, 0, -1).same()
