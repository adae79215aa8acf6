"""Part 7 reference: gradients by hand, with the chain rule instead of autograd."""

import torch


def squared_error_grad(x: torch.Tensor, w: torch.Tensor, target: float) -> torch.Tensor:
    if x.ndim != 1 or w.ndim != 1 or x.shape != w.shape:
        raise ValueError(f"x and w must be 1-D of the same length, got {tuple(x.shape)} and {tuple(w.shape)}")
    # loss = 0.5 * r**2 with r = x.w - target: dloss/dr = r, dr/dw = x
    residual = x @ w - target  # scalar
    return x * residual  # [d]


def linear_backward(
    x: torch.Tensor, w: torch.Tensor, grad_y: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    if x.ndim != 2 or w.ndim != 2 or grad_y.ndim != 2:
        raise ValueError(f"x, w and grad_y must be 2-D, got {x.ndim}-D, {w.ndim}-D and {grad_y.ndim}-D")
    n, d_in = x.shape
    if w.shape[0] != d_in or grad_y.shape != (n, w.shape[1]):
        raise ValueError(
            f"shapes do not fit y = x @ w: x {tuple(x.shape)}, w {tuple(w.shape)}, grad_y {tuple(grad_y.shape)}"
        )
    # y[i, j] = sum_k x[i, k] w[k, j]: each gradient sums grad_y over the axis it does not share
    grad_x = grad_y @ w.T  # [n, d_out] @ [d_out, d_in] -> [n, d_in], the shape of x
    grad_w = x.T @ grad_y  # [d_in, n] @ [n, d_out] -> [d_in, d_out], the shape of w
    return grad_x, grad_w
