"""Part 1 — storage, strides, views.

A tensor is a flat storage plus metadata: a shape, one stride per dim (in
elements) and a storage offset. Every function here works on that metadata
only, and agrees with what torch reports for the same view.
"""

from __future__ import annotations

import math

Shape = tuple[int, ...]
Strides = tuple[int, ...]


# ---------------------------------------------------------------------------
# argument checks
# ---------------------------------------------------------------------------

def _check_shape(shape: Shape, name: str = "shape") -> Shape:
    shape = tuple(shape)
    for size in shape:
        if not isinstance(size, int) or isinstance(size, bool):
            raise ValueError(f"{name} must contain ints, got {shape!r}")
        if size < 0:
            raise ValueError(f"{name} has a negative size: {shape!r}")
    return shape


def _check_layout(shape: Shape, strides: Strides) -> tuple[Shape, Strides]:
    """Validate a (shape, strides) pair the way torch.empty_strided would."""
    shape = _check_shape(shape)
    strides = tuple(strides)
    if len(shape) != len(strides):
        raise ValueError(
            f"shape {shape!r} has {len(shape)} dims but strides {strides!r} has {len(strides)}"
        )
    for stride in strides:
        if not isinstance(stride, int) or isinstance(stride, bool):
            raise ValueError(f"strides must contain ints, got {strides!r}")
        if stride < 0:
            raise ValueError(f"negative strides are not supported: {strides!r}")
    return shape, strides


def _wrap_dim(dim: int, ndim: int) -> int:
    """Turn a possibly negative dim into an index in [0, ndim), as torch does.

    Like torch, a 0-d tensor accepts dims 0 and -1 (it behaves as if it had one dim).
    """
    bound = max(ndim, 1)
    if not -bound <= dim < bound:
        raise ValueError(f"dim {dim} is out of range for a tensor with {ndim} dims "
                         f"(expected a value in [{-bound}, {bound - 1}])")
    return dim % bound


# ---------------------------------------------------------------------------
# Part 1 functions
# ---------------------------------------------------------------------------

def contiguous_strides(shape: Shape) -> Strides:
    """Row-major strides of a fresh tensor, as ``torch.empty(shape).stride()``.

    Walk from the last dim: its stride is 1, and each earlier stride is the
    later stride times the later size (a size 0 counts as 1, like torch).
    """
    shape = _check_shape(shape)
    strides = [0] * len(shape)
    running = 1
    for d in reversed(range(len(shape))):
        strides[d] = running
        running *= max(shape[d], 1)
    return tuple(strides)


def flat_index(index: tuple[int, ...], strides: Strides, offset: int = 0) -> int:
    """Storage position of element ``index``: ``offset + sum(i * s)``.

    The index must have one entry per stride. Without the shape there is no
    upper bound to check, but negative positions (a negative index entry or
    offset) never address an element, so they are rejected too.
    """
    index = tuple(index)
    strides = tuple(strides)
    if len(index) != len(strides):
        raise ValueError(
            f"index {index!r} has {len(index)} entries but strides {strides!r} has {len(strides)}"
        )
    if offset < 0:
        raise ValueError(f"storage offset must be >= 0, got {offset}")
    if any(i < 0 for i in index):
        raise ValueError(f"index entries must be >= 0, got {index!r}")
    return offset + sum(i * s for i, s in zip(index, strides))


def is_contiguous(shape: Shape, strides: Strides) -> bool:
    """Exactly ``torch.empty_strided(shape, strides).is_contiguous()``.

    Size-1 dims may have any stride (you never step along them) and a tensor
    without elements is always contiguous. This is torch's own loop.
    """
    shape, strides = _check_layout(shape, strides)
    if math.prod(shape) == 0:
        return True
    expected = 1
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size == 1:
            continue
        if stride != expected:
            return False
        expected *= size
    return True


def transpose(shape: Shape, strides: Strides, dim0: int, dim1: int) -> tuple[Shape, Strides]:
    """Shape and strides of ``x.transpose(dim0, dim1)``: the two entries are swapped."""
    shape, strides = _check_layout(shape, strides)
    d0 = _wrap_dim(dim0, len(shape))
    d1 = _wrap_dim(dim1, len(shape))
    if not shape:  # a 0-d tensor: transpose(0, -1) is a no-op
        return (), ()
    new_shape, new_strides = list(shape), list(strides)
    new_shape[d0], new_shape[d1] = new_shape[d1], new_shape[d0]
    new_strides[d0], new_strides[d1] = new_strides[d1], new_strides[d0]
    return tuple(new_shape), tuple(new_strides)


def slice_view(
    shape: Shape,
    strides: Strides,
    offset: int,
    dim: int,
    start: int,
    stop: int,
    step: int = 1,
) -> tuple[Shape, Strides, int]:
    """Shape, strides and storage offset of ``x[..., start:stop:step, ...]`` on ``dim``.

    Python's slice rules pick the indices (``slice.indices`` clamps them); the
    view begins ``first * stride`` elements further into storage and steps
    ``stride * step`` along ``dim``. An empty slice still moves the offset to
    the clamped start, as torch does.
    """
    shape, strides = _check_layout(shape, strides)
    if offset < 0:
        raise ValueError(f"storage offset must be >= 0, got {offset}")
    if not shape:
        raise ValueError("a 0-d tensor cannot be sliced")
    if step is None:
        step = 1
    if step < 1:
        raise ValueError(f"slice step must be >= 1, got {step}")
    d = _wrap_dim(dim, len(shape))

    first, last, step = slice(start, stop, step).indices(shape[d])
    length = len(range(first, last, step))

    new_shape = list(shape)
    new_strides = list(strides)
    new_shape[d] = length
    new_strides[d] = strides[d] * step
    return tuple(new_shape), tuple(new_strides), offset + first * strides[d]


def view_strides(shape: Shape, strides: Strides, new_shape: Shape) -> Strides | None:
    """Strides of ``x.view(new_shape)``, or ``None`` where torch would need a copy.

    Follows torch's ``computeStride``: group the old dims, from the innermost,
    into chunks that are evenly spaced in storage; every chunk must be covered
    exactly by a run of new dims, which get row-major strides scaled by the
    chunk's innermost stride.

    ``new_shape`` must be given in full: a -1 ("infer this size") is treated
    like any other negative size, as a bad argument.
    """
    shape, strides = _check_layout(shape, strides)
    new_shape = _check_shape(new_shape, "new_shape")
    numel = math.prod(shape)
    if math.prod(new_shape) != numel:
        raise ValueError(
            f"cannot view a tensor of {numel} elements as shape {new_shape!r} "
            f"({math.prod(new_shape)} elements)"
        )

    # A 0-d tensor (one element): every new dim has size 1, stride 1 will do.
    if not shape:
        return tuple(1 for _ in new_shape)

    # Empty tensors: nothing is ever read, so any shape is a view.
    if numel == 0:
        if new_shape == shape:
            return strides
        return contiguous_strides(new_shape)

    new_strides = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base_stride = strides[-1]
    tensor_numel = 1
    view_numel = 1
    for tensor_d in reversed(range(len(shape))):
        tensor_numel *= shape[tensor_d]
        chunk_ends = tensor_d == 0 or (
            shape[tensor_d - 1] != 1
            and strides[tensor_d - 1] != tensor_numel * chunk_base_stride
        )
        if not chunk_ends:
            continue
        # Cover this chunk with new dims (new size-1 dims can always be absorbed).
        while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
            new_strides[view_d] = view_numel * chunk_base_stride
            view_numel *= new_shape[view_d]
            view_d -= 1
        if view_numel != tensor_numel:
            return None
        if tensor_d > 0:
            chunk_base_stride = strides[tensor_d - 1]
            tensor_numel = 1
            view_numel = 1
    if view_d != -1:
        return None
    return tuple(new_strides)
