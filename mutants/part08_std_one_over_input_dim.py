"""Linear's std is 1/input_dim instead of 1/sqrt(input_dim): outputs shrink like 1/sqrt(input_dim)."""
TARGET = "model"

REPLACE = [
    ("std = 1 / math.sqrt(input_dim)", "std = 1 / input_dim"),
]
