"""Right gradients, from autograd's engine captured at import (no .backward(), no torch.autograd
in the functions), run with torch-function handling off."""
TARGET = "gradients"

import torch as _torch

_engine = _torch.autograd.variable.Variable._execution_engine
_plain = _torch._C.DisableTorchFunction


def _grad(output, wrt, seed):
    with _plain():
        return _engine.run_backward((output,), (seed,), False, False, (wrt,), True, False)[0]


def squared_error_grad(x, w, t):
    with _torch.enable_grad():
        leaf = w.detach().clone().requires_grad_(True)
        loss = 0.5 * ((x @ leaf - t) ** 2).sum()
        return _grad(loss, leaf, _torch.ones_like(loss))


def linear_backward(x, w, grad_y):
    with _torch.enable_grad():
        xl = x.detach().clone().requires_grad_(True)
        wl = w.detach().clone().requires_grad_(True)
        y = xl @ wl
        return _grad(y, xl, grad_y), _grad(xl @ wl, wl, grad_y)
