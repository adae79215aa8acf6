"""squared_error_grad returns the residual x·w - target for every weight, without the factor x."""
TARGET = "gradients"


def squared_error_grad(x, w, target):
    return (x @ w - target) * torch.ones_like(w)
