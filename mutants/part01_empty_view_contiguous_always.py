"""view_strides gives an empty tensor contiguous strides even when viewed as its own shape, where torch keeps its strides."""
TARGET = "strides"

REPLACE = [
    ("""\
        if tuple(shape) == tuple(new_shape):
            return tuple(strides)
        return contiguous_strides(new_shape)""",
     "        return contiguous_strides(new_shape)"),
]
