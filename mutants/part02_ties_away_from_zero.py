"""nvfp4_quantize rounds a tie away from zero (2.5 -> 3, 5 -> 6) instead of to the even mantissa."""
TARGET = "dtypes"

REPLACE = [
    ("torch.round(magnitude / step)", "torch.floor(magnitude / step + 0.5)"),
]
