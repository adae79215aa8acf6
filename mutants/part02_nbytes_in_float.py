"""tensor_nbytes counts the elements in float64 (math.prod of floats): exact up to 2**53 elements, rounded
past it."""
TARGET = "dtypes"

REPLACE = [
    ("    return math.prod(shape) * bytes_per_element(dtype)",
     "    return int(math.prod(float(size) for size in shape) * bytes_per_element(dtype))"),
]
