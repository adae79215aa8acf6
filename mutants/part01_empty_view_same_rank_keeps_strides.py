"""Viewing an empty tensor keeps its strides whenever the new shape has as many dims (not only the same shape)."""
TARGET = "strides"
REPLACE = [
    ("        if tuple(shape) == tuple(new_shape):\n            return tuple(strides)",
     "        if len(shape) == len(new_shape):\n            return tuple(strides)"),
]
