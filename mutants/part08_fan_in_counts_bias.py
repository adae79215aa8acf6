"""Linear's std counts a bias in the fan-in, 1/sqrt(input_dim + 1): 0.4% off at input_dim 128, 11% at 4, 29% at 1."""
TARGET = "model"

REPLACE = [
    ("        std = 1 / math.sqrt(input_dim)\n", "        std = 1 / math.sqrt(input_dim + 1)\n"),
]
