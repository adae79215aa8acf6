"""squared_error_grad uses target - x·w: the gradient points the wrong way."""
TARGET = "gradients"

REPLACE = [
    ("residual = x @ w - target", "residual = target - x @ w"),
]
