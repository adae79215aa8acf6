"""squared_error_grad uses target - x·w: the gradient points the wrong way."""
TARGET = "gradients"


def squared_error_grad(x, w, target):
    return x * (target - x @ w)
