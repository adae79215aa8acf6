"""underflows_to_zero forgets subnormals: everything below half the smallest normal becomes 0."""
TARGET = "dtypes"


def underflows_to_zero(value, dtype):
    if value == 0:
        raise ValueError("value must be nonzero")
    return abs(value) <= format_limits(float_format(dtype)).smallest_normal / 2
