"""underflows_to_zero compares logarithms: log2 of a value a hair above the tie rounds onto the tie's, so
2^-25 (1 + 2^-50) is called an underflow in float16, where it rounds up to the smallest subnormal."""
TARGET = "dtypes"

REPLACE = [
    ("    return abs(value) <= format_limits(fmt).smallest_subnormal / 2",
     "    return math.log2(abs(value)) <= math.log2(format_limits(fmt).smallest_subnormal / 2)"),
]
