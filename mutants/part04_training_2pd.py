"""training_flops counts the forward pass only: 2PD instead of 6PD."""
TARGET = "flops"

REPLACE = [
    ("6 * num_params", "2 * num_params"),
]
