"""linear_backward reshapes w to [d_out, d_in] instead of transposing it, for grad_x."""
TARGET = "gradients"

REPLACE = [
    ("grad_x = grad_y @ w.T", "grad_x = grad_y @ w.reshape(w.shape[1], w.shape[0])"),
]
