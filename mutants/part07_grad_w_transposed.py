"""linear_backward computes grad_w = grad_yᵀ @ x: the transpose of the right answer ([d_out, d_in])."""
TARGET = "gradients"

REPLACE = [
    ("grad_w = x.T @ grad_y", "grad_w = grad_y.T @ x"),
]
