"""Both gradients come from torch.func (grad and vjp): right values, but automatic, not by hand."""
TARGET = "gradients"

REPLACE = [
    ("""\
    residual = x @ w - target  # scalar
    return x * residual  # [d]""", "    return torch.func.grad(lambda w: 0.5 * (x @ w - target) ** 2)(w)"),
    ("    grad_x = grad_y @ w.T", """\
    _, pullback = torch.func.vjp(lambda x, w: x @ w, x, w)
    grad_x, grad_w = pullback(grad_y)"""),
    ("    grad_w = x.T @ grad_y  # [d_in, n] @ [n, d_out] -> [d_in, d_out], the shape of w\n", ""),
]
