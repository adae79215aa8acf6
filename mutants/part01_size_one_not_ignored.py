"""is_contiguous checks the stride of size-1 dims too, which torch ignores."""
TARGET = "strides"


def is_contiguous(shape, strides):
    if any(size == 0 for size in shape):
        return True
    return tuple(strides) == contiguous_strides(shape)
