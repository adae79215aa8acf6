"""format_limits treats "nan_only" like "ieee": the all-ones exponent is lost (e4m3fn max 240, not 448)."""
TARGET = "dtypes"

# the nan_only branch gets the ieee one's top exponent and mantissa
REPLACE = [
    ("top_exponent, top_mantissa = 2**e - 1, 2**m - 2", "top_exponent, top_mantissa = 2**e - 2, 2**m - 1"),
]
