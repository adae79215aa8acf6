"""Both gradients come from autograd (.backward() on copies that require grad): right values, not by hand."""
TARGET = "gradients"


def squared_error_grad(x, w, target):
    w = w.detach().clone().requires_grad_(True)
    (0.5 * (x @ w - target) ** 2).backward()
    return w.grad


def linear_backward(x, w, grad_y):
    x = x.detach().clone().requires_grad_(True)
    w = w.detach().clone().requires_grad_(True)
    (x @ w).backward(grad_y)
    return x.grad, w.grad
