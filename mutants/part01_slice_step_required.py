"""slice_view has no default step: right whenever the caller passes one, a TypeError when not."""
TARGET = "strides"

REPLACE = [
    ("    step: int = 1,\n) -> tuple[Shape, Strides, int]:", "    step: int,\n) -> tuple[Shape, Strides, int]:"),
]
