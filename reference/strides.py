"""Part 1 reference: storage, strides, views."""

from __future__ import annotations

Shape = tuple[int, ...]
Strides = tuple[int, ...]


def _check_shape(shape: Shape, what: str = "shape") -> None:
    for size in shape:
        if size < 0:
            raise ValueError(f"{what} {tuple(shape)} has a negative size {size}")


def _wrap_dim(dim: int, ndim: int) -> int:
    rank = max(ndim, 1)  # torch lets a 0-d tensor name dim 0 or -1
    if not -rank <= dim < rank:
        raise ValueError(f"dim {dim} is out of range for a {ndim}-d tensor")
    return dim % rank


def contiguous_strides(shape: Shape) -> Strides:
    _check_shape(shape)
    strides = [0] * len(shape)
    step = 1
    for d in range(len(shape) - 1, -1, -1):
        strides[d] = step
        step *= max(shape[d], 1)  # torch treats a size-0 dim as 1 here
    return tuple(strides)


def flat_index(index: tuple[int, ...], strides: Strides, offset: int = 0) -> int:
    if len(index) != len(strides):
        raise ValueError(f"index has {len(index)} dims but strides has {len(strides)}")
    return offset + sum(i * s for i, s in zip(index, strides))


def is_contiguous(shape: Shape, strides: Strides) -> bool:
    if len(shape) != len(strides):
        raise ValueError(f"shape has {len(shape)} dims but strides has {len(strides)}")
    _check_shape(shape)
    if any(size == 0 for size in shape):
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
    if len(shape) != len(strides):
        raise ValueError(f"shape has {len(shape)} dims but strides has {len(strides)}")
    if not shape:  # a 0-d tensor: dims 0 and -1 are allowed and nothing moves
        _wrap_dim(dim0, 0), _wrap_dim(dim1, 0)
        return (), ()
    d0, d1 = _wrap_dim(dim0, len(shape)), _wrap_dim(dim1, len(shape))
    new_shape, new_strides = list(shape), list(strides)
    new_shape[d0], new_shape[d1] = shape[d1], shape[d0]
    new_strides[d0], new_strides[d1] = strides[d1], strides[d0]
    return tuple(new_shape), tuple(new_strides)


def slice_view(
    shape: Shape,
    strides: Strides,
    offset: int,
    dim: int,
    start: int | None,
    stop: int | None,
    step: int = 1,
) -> tuple[Shape, Strides, int]:
    if len(shape) != len(strides):
        raise ValueError(f"shape has {len(shape)} dims but strides has {len(strides)}")
    if not shape:
        raise ValueError("a 0-d tensor cannot be sliced")
    _check_shape(shape)
    if step < 1:
        raise ValueError(f"step must be >= 1, got {step}")
    d = _wrap_dim(dim, len(shape))
    first, last, _ = slice(start, stop, step).indices(shape[d])  # Python's clamping rules
    length = len(range(first, last, step))
    new_shape, new_strides = list(shape), list(strides)
    new_shape[d] = length
    new_strides[d] = strides[d] * step
    return tuple(new_shape), tuple(new_strides), offset + first * strides[d]


def view_strides(shape: Shape, strides: Strides, new_shape: Shape) -> Strides | None:
    """torch's ``computeStride``: walk both shapes from the innermost dim, chunk by chunk.

    A chunk is a run of old dims that are laid out as one contiguous block
    (each dim's stride is the next one's stride times its size). A view is possible
    iff the new shape splits/merges only inside chunks.
    """
    if len(shape) != len(strides):
        raise ValueError(f"shape has {len(shape)} dims but strides has {len(strides)}")
    _check_shape(shape)
    _check_shape(new_shape, "new_shape")
    numel = 1
    for size in shape:
        numel *= size
    new_numel = 1
    for size in new_shape:
        new_numel *= size
    if numel != new_numel:
        raise ValueError(f"cannot view {numel} elements as shape {tuple(new_shape)}")
    if not shape:  # a 0-d tensor: any shape of ones, all strides 1
        return tuple(1 for _ in new_shape)
    if numel == 0:
        if tuple(shape) == tuple(new_shape):
            return tuple(strides)
        return contiguous_strides(new_shape)

    new_strides = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base_stride = strides[-1]
    tensor_numel = 1
    view_numel = 1
    for tensor_d in range(len(shape) - 1, -1, -1):
        tensor_numel *= shape[tensor_d]
        chunk_ends = tensor_d == 0 or (
            shape[tensor_d - 1] != 1 and strides[tensor_d - 1] != tensor_numel * chunk_base_stride
        )
        if chunk_ends:
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
