"""slice_view takes start and stop as given: no wrap of negative bounds, no clamping."""
TARGET = "strides"

REPLACE = [
    ("slice(start, stop, step).indices(shape[d])", "(start, stop, step)"),
]
