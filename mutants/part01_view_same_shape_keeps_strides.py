"""view_strides returns the strides it was given when the shape does not change: right but for size-1
dims, whose strides torch works out afresh (a (2, 1, 3) tensor of strides (3, 99, 1) views as (3, 3, 1))."""
TARGET = "strides"

REPLACE = [
    ("    if not shape:  # a 0-d tensor: any shape of ones, all strides 1\n",
     "    if tuple(new_shape) == tuple(shape):\n        return tuple(strides)\n"
     "    if not shape:  # a 0-d tensor: any shape of ones, all strides 1\n"),
]
