"""linear_backward special-cases an empty batch, and returns grad_x as a 1-D empty tensor instead of [0, d_in]."""
TARGET = "gradients"
REPLACE = [
    ("    grad_x = grad_y @ w.T  #",
     "    if n == 0:\n        return torch.empty(0), torch.zeros_like(w)\n    grad_x = grad_y @ w.T  #"),
]
