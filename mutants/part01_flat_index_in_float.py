"""flat_index sums in float64 (offset + sum(i * s) as floats, then int): exact up to 2**53, off by one or
more past it, where an odd position has no float."""
TARGET = "strides"

REPLACE = [
    ("    return offset + sum(i * s for i, s in zip(index, strides))",
     "    return int(float(offset) + sum(float(i) * float(s) for i, s in zip(index, strides)))"),
]
