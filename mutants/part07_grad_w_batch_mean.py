"""linear_backward averages grad_w over the batch (divides by n) instead of summing."""
TARGET = "gradients"

REPLACE = [
    ("grad_w = x.T @ grad_y", "grad_w = x.T @ grad_y / max(n, 1)"),
]
