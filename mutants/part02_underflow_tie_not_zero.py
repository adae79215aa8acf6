"""underflows_to_zero uses < at half the smallest subnormal: the exact tie is said to survive."""
TARGET = "dtypes"


def underflows_to_zero(value, dtype):
    if value == 0:
        raise ValueError("value must be nonzero")
    return abs(value) < format_limits(float_format(dtype)).smallest_subnormal / 2
