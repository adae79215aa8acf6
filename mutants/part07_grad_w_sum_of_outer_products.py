"""linear_backward adds up one outer product per example with Python's sum: right, but the int 0 for an empty batch."""
TARGET = "gradients"
REPLACE = [
    ("grad_w = x.T @ grad_y", "grad_w = sum(torch.outer(x[i], grad_y[i]) for i in range(n))"),
]
