"""squared_error_grad returns the residual x·w - target for every weight, without the factor x."""
TARGET = "gradients"

REPLACE = [
    ("return x * residual", "return residual * torch.ones_like(w)"),
]
