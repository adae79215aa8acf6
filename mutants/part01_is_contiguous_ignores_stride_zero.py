"""is_contiguous skips stride-0 dims as if they had size 1: an expanded tensor is taken for contiguous."""
TARGET = "strides"

REPLACE = [
    ("        if size == 1:", "        if size == 1 or stride == 0:"),
]
