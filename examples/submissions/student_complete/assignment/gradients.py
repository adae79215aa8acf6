"""Part 7 — gradients by hand.

The chain rule written out, no autograd: these are the formulas autograd's
backward functions implement, and the reason a linear layer's backward costs
two matmuls of the forward's size.
"""

from __future__ import annotations

import torch


def squared_error_grad(x: torch.Tensor, w: torch.Tensor, target: float | torch.Tensor) -> torch.Tensor:
    """d/dw of ``0.5 * (x . w - target)**2`` for 1-D ``x`` and ``w``.

    With ``pred = x . w`` the chain rule gives ``(pred - target) * d(pred)/dw``
    and ``d(pred)/dw = x``, so the gradient is ``(x . w - target) * x``.
    Lecture check: x = [1, 2, 3], w = [1, 1, 1], target 5 -> [1, 2, 3].
    """
    if x.dim() != 1 or w.dim() != 1:
        raise ValueError(f"x and w must be 1-D, got shapes {tuple(x.shape)} and {tuple(w.shape)}")
    if x.shape != w.shape:
        raise ValueError(f"x and w must have the same length, got {x.shape[0]} and {w.shape[0]}")
    if isinstance(target, torch.Tensor) and target.numel() != 1:
        raise ValueError(f"target must be a scalar, got shape {tuple(target.shape)}")
    x = x.detach()
    w = w.detach()
    target = target.detach() if isinstance(target, torch.Tensor) else target
    residual = torch.dot(x, w) - target
    return residual * x


def linear_backward(x: torch.Tensor, w: torch.Tensor, grad_y: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Gradients of ``y = x @ w`` given ``grad_y = dL/dy``.

    x [n, d_in], w [d_in, d_out], grad_y [n, d_out]:
        y[i, j] = sum_k x[i, k] w[k, j]
        dL/dx[i, k] = sum_j grad_y[i, j] w[k, j]  ->  grad_x = grad_y @ w.T   [n, d_in]
        dL/dw[k, j] = sum_i x[i, k] grad_y[i, j]  ->  grad_w = x.T @ grad_y   [d_in, d_out]
    Each gradient has the shape of the tensor it belongs to.
    """
    if x.dim() != 2 or w.dim() != 2 or grad_y.dim() != 2:
        raise ValueError(
            f"x, w and grad_y must be 2-D, got shapes {tuple(x.shape)}, {tuple(w.shape)}, {tuple(grad_y.shape)}"
        )
    n, d_in = x.shape
    if w.shape[0] != d_in:
        raise ValueError(f"x is [{n}, {d_in}] but w is {list(w.shape)}: inner sizes differ")
    d_out = w.shape[1]
    if tuple(grad_y.shape) != (n, d_out):
        raise ValueError(f"grad_y must have shape ({n}, {d_out}) like y, got {tuple(grad_y.shape)}")
    x, w, grad_y = x.detach(), w.detach(), grad_y.detach()
    grad_x = grad_y @ w.T
    grad_w = x.T @ grad_y
    return grad_x, grad_w
