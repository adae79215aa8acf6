"""nvfp4_quantize scales each block by amax instead of amax / 6: every value is squeezed into [-1, 1]."""
TARGET = "dtypes"

REPLACE = [
    ("_FP4_MAX = 6.0", "_FP4_MAX = 1.0"),
]
