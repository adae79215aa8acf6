"""Linear cuts the normal at ±2 std instead of ±3: too tight, the weights come out too small."""
TARGET = "model"

REPLACE = [
    ("a=-3 * std, b=3 * std", "a=-2 * std, b=2 * std"),
]
