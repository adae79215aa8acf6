"""is_contiguous checks the stride of size-1 dims too, which torch ignores."""
TARGET = "strides"

REPLACE = [
    ("        if size == 1:\n            continue\n", ""),
]
