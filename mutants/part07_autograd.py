"""Both gradients come from autograd (.backward() on copies that require grad): right values, not by hand."""
TARGET = "gradients"

REPLACE = [
    ("""\
    residual = x @ w - target  # scalar
    return x * residual  # [d]""", """\
    w = w.detach().clone().requires_grad_(True)
    (0.5 * (x @ w - target) ** 2).backward()
    return w.grad"""),
    ("    grad_x = grad_y @ w.T", """\
    x = x.detach().clone().requires_grad_(True)
    w = w.detach().clone().requires_grad_(True)
    (x @ w).backward(grad_y)
    grad_x = x.grad"""),
    ("grad_w = x.T @ grad_y", "grad_w = w.grad"),
]
