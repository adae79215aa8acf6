"""Part 7 — gradients by hand.

``loss.backward()`` fills every ``.grad`` for you, but it is worth knowing what it
computes, because those backward computations are where two thirds of the training
FLOPs go. Here you write two gradients with the chain rule and plain tensor ops.

Lecture example, with autograd:

    x = torch.tensor([1., 2, 3])
    w = torch.tensor([1., 1, 1], requires_grad=True)
    pred_y = x @ w                       # = 6
    loss = 0.5 * (pred_y - 5).pow(2)     # = 0.5
    loss.backward()
    w.grad                               # [1, 2, 3]  (= x * (pred_y - 5))

For a linear layer ``Y = X @ W`` (X: [B, D], W: [D, F]) the backward pass is two
matrix products, each as costly as the forward one (2BDF FLOPs each, 6BDF in all):

    dL/dX = dL/dY @ Wᵀ      [B, F] @ [F, D] -> [B, D], the shape of X
    dL/dW = Xᵀ @ dL/dY      [D, B] @ [B, F] -> [D, F], the shape of W

A gradient always has the shape of the thing it is the gradient of: that alone tells
you which operand to transpose and in which order to multiply.

Rules for this part:

* No autograd: no ``.backward()``, ``torch.autograd.grad``, ``torch.func.grad`` or
  ``requires_grad_()``. A graded test reads the code your two functions run and what
  runs when this file is imported (here, and in any helper of yours they call) for
  any of them, and for ways to reach them unseen (``getattr``, ``exec``, private
  ``torch._...`` names): plain tensor ops are all a gradient by hand needs. A
  self-check under ``if __name__ == "__main__":`` never runs when graded, and may
  use autograd.
* Return tensors of the inputs' dtype (float32 in, float32 out; float64 in, float64
  out) and of the right shape. Values are compared with a tolerance of a few float
  roundings per term, so any correct formula passes.
* Bad shapes raise ``ValueError`` with a message.

Check yourself against autograd: compute the same gradient with ``.backward()`` on
copies that require grad, and compare with ``torch.testing.assert_close``.
"""

import torch


def squared_error_grad(x: torch.Tensor, w: torch.Tensor, target: float) -> torch.Tensor:
    """The gradient with respect to ``w`` of ``loss = 0.5 * (x·w - target)²``, by hand.

    ``x`` and ``w`` are 1-D tensors of the same length; ``target`` is a number. With the
    residual ``r = x·w - target`` (a scalar), the chain rule gives
    ``dloss/dw = dloss/dr * dr/dw = r * x``: the input, scaled by how wrong the
    prediction was. The 0.5 is there to cancel the 2 of the square.

    Raise ``ValueError`` unless ``x`` and ``w`` are 1-D of the same length.

    Example (the lecture's): x = [1, 2, 3], w = [1, 1, 1], target = 5: x·w = 6, r = 1,
    gradient [1, 2, 3].
    """
    raise NotImplementedError("gradients.squared_error_grad")


def linear_backward(
    x: torch.Tensor, w: torch.Tensor, grad_y: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """``(grad_x, grad_w)`` for ``y = x @ w``, given ``grad_y = dL/dy``, by hand.

    Shapes: ``x`` [n, d_in], ``w`` [d_in, d_out], ``grad_y`` [n, d_out] (the shape of y).
    Since ``y[i, j] = sum over k of x[i, k] * w[k, j]``:

    * ``grad_x = grad_y @ wᵀ``, shape [n, d_in] like x;
    * ``grad_w = xᵀ @ grad_y``, shape [d_in, d_out] like w (a sum over the batch).

    An empty batch (n = 0) is fine: grad_x is empty and grad_w is all zeros.
    Raise ``ValueError`` if the shapes do not fit together.

    Example (the lecture's shapes): x [100, 256], w [256, 512], grad_y [100, 512] give
    grad_x [100, 256] and grad_w [256, 512]. With numbers: x = [[1, 2]], w = [[3], [4]],
    grad_y = [[1]] give grad_x = [[3, 4]] and grad_w = [[1], [2]].
    """
    raise NotImplementedError("gradients.linear_backward")
