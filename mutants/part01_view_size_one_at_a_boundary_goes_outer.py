"""A new size-1 dim where two chunks' runs meet is given to the outer chunk (its stride the outer chunk's
innermost stride), where torch gives it to the inner one: (2, 3), (6, 1) -> (2, 1, 3) gives (6, 6, 1), not
(6, 3, 1)."""
TARGET = "strides"

REPLACE = [
    ("while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):",
     "while view_d >= 0 and (view_numel < tensor_numel or (new_shape[view_d] == 1 and tensor_d == 0)):"),
]
