"""view_strides refuses every non-contiguous input, though torch can view many of them."""
TARGET = "strides"


def view_strides(shape, strides, new_shape):
    if not is_contiguous(shape, strides):
        return None
    return contiguous_strides(new_shape)
