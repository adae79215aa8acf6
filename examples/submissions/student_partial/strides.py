"""Part 1: storage, strides, views (shape/stride bookkeeping only, no tensors)."""

from __future__ import annotations

from math import prod

Shape = tuple[int, ...]
Strides = tuple[int, ...]


def _validate(shape, strides):
    if len(shape) != len(strides):
        raise ValueError(f"shape {shape} and strides {strides} have different lengths")
    if any(s < 0 for s in shape):
        raise ValueError(f"negative size in shape {shape}")
    if any(s < 0 for s in strides):
        raise ValueError(f"negative stride in {strides}")


def _dim(d, ndim):
    n = max(ndim, 1)
    if d < -n or d >= n:
        raise ValueError(f"dim {d} out of range for {ndim}-d tensor")
    return d + n if d < 0 else d


def contiguous_strides(shape: Shape) -> Strides:
    if any(s < 0 for s in shape):
        raise ValueError(f"negative size in shape {shape}")
    out = []
    acc = 1
    for size in shape[::-1]:
        out.append(acc)
        acc *= max(size, 1)  # size 0 counts as 1, like torch
    return tuple(out[::-1])


def flat_index(index: tuple[int, ...], strides: Strides, offset: int = 0) -> int:
    if len(index) != len(strides):
        raise ValueError(f"index {index} does not match strides {strides}")
    if offset < 0 or any(i < 0 for i in index):
        raise ValueError(f"negative index {index} or offset {offset}")
    pos = offset
    for i, s in zip(index, strides):
        pos += i * s
    return pos


def is_contiguous(shape: Shape, strides: Strides) -> bool:
    _validate(shape, strides)
    if prod(shape) == 0:
        return True
    # contiguous = the strides a fresh tensor of this shape would get
    return tuple(strides) == contiguous_strides(shape)


def transpose(shape: Shape, strides: Strides, dim0: int, dim1: int) -> tuple[Shape, Strides]:
    _validate(shape, strides)
    a, b = _dim(dim0, len(shape)), _dim(dim1, len(shape))
    if len(shape) == 0:
        return tuple(shape), tuple(strides)
    sh, st = list(shape), list(strides)
    sh[a], sh[b] = sh[b], sh[a]
    st[a], st[b] = st[b], st[a]
    return tuple(sh), tuple(st)


def slice_view(shape: Shape, strides: Strides, offset: int, dim: int,
               start: int, stop: int, step: int = 1) -> tuple[Shape, Strides, int]:
    _validate(shape, strides)
    if len(shape) == 0:
        raise ValueError("cannot slice a 0-d tensor")
    if step < 1:
        raise ValueError(f"step must be >= 1, got {step}")
    d = _dim(dim, len(shape))
    n = shape[d]
    # python slice rules: negative counts from the end, then clamp into [0, n]
    if start < 0:
        start += n
    if stop < 0:
        stop += n
    start = min(max(start, 0), n)
    stop = min(max(stop, start), n)
    length = (stop - start + step - 1) // step

    sh, st = list(shape), list(strides)
    sh[d] = length
    st[d] = strides[d] * step
    return tuple(sh), tuple(st), offset + start * strides[d]


def view_strides(shape: Shape, strides: Strides, new_shape: Shape) -> Strides | None:
    _validate(shape, strides)
    new_shape = tuple(new_shape)
    if any(s < 0 for s in new_shape):
        raise ValueError(f"negative size in new shape {new_shape}")
    numel = prod(shape)
    if prod(new_shape) != numel:
        raise ValueError(f"cannot view {numel} elements as {new_shape}")

    if len(shape) == 0:
        return tuple([1] * len(new_shape))
    if numel == 0:
        return tuple(strides) if new_shape == tuple(shape) else contiguous_strides(new_shape)

    # 1. old dims -> chunks (innermost first): (number of elements, innermost stride)
    chunks = []
    base, count = strides[-1], 1
    for d in range(len(shape) - 1, -1, -1):
        count *= shape[d]
        last_of_chunk = d == 0 or (shape[d - 1] != 1 and strides[d - 1] != count * base)
        if last_of_chunk:
            chunks.append((count, base))
            if d > 0:
                base, count = strides[d - 1], 1

    # 2. cover each chunk with new dims, row-major inside the chunk
    out = [0] * len(new_shape)
    nd = len(new_shape) - 1
    for count, base in chunks:
        covered = 1
        while nd >= 0 and (covered < count or new_shape[nd] == 1):
            out[nd] = covered * base
            covered *= new_shape[nd]
            nd -= 1
        if covered != count:
            return None  # a new dim straddles two chunks -> needs a copy
    if nd != -1:
        return None
    return tuple(out)
