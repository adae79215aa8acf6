"""linear_backward computes grad_w as (grad_y.t_() @ x).T: the right values, but the caller's grad_y is
left transposed in place."""
TARGET = "gradients"

REPLACE = [
    ("    grad_w = x.T @ grad_y ", "    grad_w = (grad_y.t_() @ x).T "),
]
