"""slice_view takes start and stop as given: no wrap of negative bounds, no clamping."""
TARGET = "strides"


def slice_view(shape, strides, offset, dim, start, stop, step=1):
    if step < 1:
        raise ValueError("step must be >= 1")
    d = dim % len(shape)
    length = max(0, -(-(stop - start) // step))
    new_shape, new_strides = list(shape), list(strides)
    new_shape[d] = length
    new_strides[d] = strides[d] * step
    return tuple(new_shape), tuple(new_strides), offset + start * strides[d]
