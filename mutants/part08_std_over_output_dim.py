"""Linear scales by 1/sqrt(output_dim) (the wrong fan), right only for square layers."""
TARGET = "model"

REPLACE = [
    ("std = 1 / math.sqrt(input_dim)", "std = 1 / math.sqrt(output_dim)"),
]
