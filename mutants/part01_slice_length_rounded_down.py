"""slice_view takes a slice's length as (stop - start) // step, rounded down: x[2:9:3] holds 2, 5 and 8,
three elements, not two."""
TARGET = "strides"

REPLACE = [
    ("length = len(range(first, last, step))", "length = max(0, (last - first) // step)"),
]
