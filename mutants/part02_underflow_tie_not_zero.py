"""underflows_to_zero uses < at half the smallest subnormal: the exact tie is said to survive."""
TARGET = "dtypes"

REPLACE = [
    ("abs(value) <= ", "abs(value) < "),
]
