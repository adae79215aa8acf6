"""An empty slice keeps the old storage offset instead of moving it to the clamped start."""
TARGET = "strides"
REPLACE = [
    ("    return tuple(new_shape), tuple(new_strides), offset + first * strides[d]",
     "    return tuple(new_shape), tuple(new_strides), offset + (first * strides[d] if length else 0)"),
]
