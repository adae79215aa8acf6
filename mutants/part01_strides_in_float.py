"""contiguous_strides multiplies the sizes up in float64: exact up to 2**53, rounded past it."""
TARGET = "strides"

REPLACE = [
    ("    step = 1\n    for d in range(len(shape) - 1, -1, -1):\n        strides[d] = step\n"
     "        step *= max(shape[d], 1)  # torch treats a size-0 dim as 1 here\n",
     "    step = 1.0\n    for d in range(len(shape) - 1, -1, -1):\n        strides[d] = int(step)\n"
     "        step *= max(shape[d], 1)  # torch treats a size-0 dim as 1 here\n"),
]
