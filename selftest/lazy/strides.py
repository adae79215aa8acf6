"""Lazy Part 1: every answer has the right type and shape, and is wrong."""

Shape = tuple[int, ...]
Strides = tuple[int, ...]


def contiguous_strides(shape):
    return (0,) * len(shape)


def flat_index(index, strides, offset=0):
    return 0


def is_contiguous(shape, strides):
    return True


def transpose(shape, strides, dim0, dim1):
    return tuple(shape), tuple(strides)


def slice_view(shape, strides, offset, dim, start, stop, step=1):
    return tuple(shape), tuple(strides), offset


def view_strides(shape, strides, new_shape):
    return None
