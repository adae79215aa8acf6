"""format_limits scales subnormals by 2^-bias instead of 2^(1-bias): smallest_subnormal is halved."""
TARGET = "dtypes"

REPLACE = [
    ("smallest_subnormal=math.ldexp(1.0, 1 - bias - m)", "smallest_subnormal=math.ldexp(1.0, -bias - m)"),
]
