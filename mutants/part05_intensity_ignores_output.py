"""matmul_arithmetic_intensity counts the bytes read (X and W) but not the output written."""
TARGET = "roofline"

REPLACE = [
    ("(b * d + d * f + b * f)", "(b * d + d * f)"),
]
