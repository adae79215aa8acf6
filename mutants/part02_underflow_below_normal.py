"""underflows_to_zero forgets subnormals: everything below half the smallest normal becomes 0."""
TARGET = "dtypes"

REPLACE = [
    ("format_limits(fmt).smallest_subnormal / 2", "format_limits(fmt).smallest_normal / 2"),
]
