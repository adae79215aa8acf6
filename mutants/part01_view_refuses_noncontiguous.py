"""view_strides refuses every non-contiguous input, though torch can view many of them."""
TARGET = "strides"

REPLACE = [
    ("    if not shape:  # a 0-d tensor: any shape", """\
    if not is_contiguous(shape, strides):
        return None
    return contiguous_strides(new_shape)
    if not shape:  # a 0-d tensor: any shape"""),
]
