"""Part 8 — Linear and Cruncher: a deep linear model, built by hand.

The lecture's model is as simple as a network gets: a stack of matrix
multiplies. ``Cruncher(dim, num_layers)`` applies ``num_layers`` dim×dim
``Linear`` layers and then one dim×1 layer, giving one number per example. It is
the model the rest of the course does its accounting on (parameters, memory,
FLOPs), so its layout is fixed:

    model = Cruncher(dim=64, num_layers=2)
    sorted(model.state_dict())   # ['final.weight', 'layers.0.weight', 'layers.1.weight']
    model.layers[0].weight.shape # (64, 64): (input_dim, output_dim), used as x @ weight
    model.final.weight.shape     # (64, 1)
    model(torch.randn(8, 64)).shape  # (8,)

What you need from torch: subclass ``nn.Module`` and call ``super().__init__()``
first; a tensor wrapped in ``nn.Parameter`` and stored as an attribute becomes a
parameter (listed by ``parameters()``, saved in ``state_dict()``, updated by the
optimizer); ``nn.ModuleList`` holds sub-modules so that they are registered too
(a plain Python list hides them).

Bad arguments (a size below 1, a negative ``num_layers``) raise ``ValueError``.
"""

from __future__ import annotations

import torch
from torch import nn


class Linear(nn.Module):
    """``y = x @ weight``, no bias, with ``weight`` an ``nn.Parameter`` of shape (input_dim, output_dim).

    Initialisation is what this part is about. The lecture's three steps:

    * ``torch.randn(input_dim, output_dim)`` is unstable: each output sums
      ``input_dim`` products, so its size grows like sqrt(input_dim).
    * Dividing by sqrt(input_dim) (Xavier/Glorot) makes every weight's variance
      1/input_dim, and each output's size ~1 whatever the width.
    * Safer still: a normal with std 1/sqrt(input_dim) *truncated* at ±3 std, so
      that no rare huge weight appears: ``nn.init.trunc_normal_``.

    Careful: ``trunc_normal_(w, mean, std, a, b)`` takes ``a`` and ``b`` as
    absolute values, not in units of std. The lecture's
    ``trunc_normal_(w, std=1/np.sqrt(input_dim), a=-3, b=3)`` cuts at ±3, which
    is ±3·sqrt(input_dim) std, i.e. no cut at all; you need
    ``a=-3 * std, b=3 * std``. (Clamping a normal to ±3 std is not the same
    either: it piles the 0.27% of mass beyond the cut onto the bounds.)

    Cutting the tails makes the weights' std a little smaller than the
    normal's: for N(0, 1) cut at ±3 the variance is
    1 - 2·3·φ(3)/(Φ(3) - Φ(-3)) = 0.97334, so the std is 0.98658, and

        Linear(1024, 512).weight.std()                      # ≈ 0.98658 / sqrt(1024) ≈ 0.0308
        Linear(1024, 64)(torch.randn(4096, 1024)).std()     # ≈ 0.987 (and ≈ 0.987 at any input_dim)

    Draw from torch's default generator (no ``generator=`` of your own, nor numpy's or
    Python's random), so that ``torch.manual_seed`` decides the weights and each new
    layer draws others.

    ``forward`` works for x of shape (batch, input_dim), giving (batch, output_dim).
    Raise ``ValueError`` if ``input_dim`` or ``output_dim`` is below 1.
    """

    def __init__(self, input_dim: int, output_dim: int) -> None:
        super().__init__()
        raise NotImplementedError("model.Linear")

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError("model.Linear.forward")


class Cruncher(nn.Module):
    """The lecture's deep linear model: ``num_layers`` ``Linear(dim, dim)``, then ``Linear(dim, 1)``.

    Attributes (their names are the state-dict keys):
        ``self.layers``: an ``nn.ModuleList`` of ``num_layers`` ``Linear(dim, dim)``
        ``self.final``: ``Linear(dim, 1)``

    ``forward(x)`` takes x of shape (batch, dim), runs it through every layer in
    order, then ``final``, and returns shape (batch,): squeeze the last dim of the
    (batch, 1) result with ``.squeeze(-1)`` (a bare ``.squeeze()`` would also drop
    the batch dim when batch == 1).

    ``num_layers == 0`` is allowed (just the final layer). Raise ``ValueError``
    if ``dim`` is below 1 or ``num_layers`` is negative.

    Example:
        Cruncher(64, 2)(torch.randn(8, 64)).shape  # torch.Size([8])
    """

    def __init__(self, dim: int, num_layers: int) -> None:
        super().__init__()
        raise NotImplementedError("model.Cruncher")

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError("model.Cruncher.forward")


def num_parameters(model: nn.Module) -> int:
    """The number of trainable numbers in ``model``: the elements of all its parameters.

    As in the lecture: ``sum(p.numel() for p in model.parameters())``, for any
    ``nn.Module``. ``parameters()`` lists a parameter shared by two layers once,
    and leaves out buffers (``BatchNorm1d``'s running mean and variance are saved
    in the state dict but never trained), so do not count ``state_dict()``. A
    parameter frozen with ``requires_grad_(False)`` is still a parameter: count it.

    Examples:
        Cruncher(64, 2)      -> 8256   (64*64 + 64*64 + 64)
        nn.Linear(3, 2)      -> 8      (a 2×3 weight and 2 biases)
    """
    raise NotImplementedError("model.num_parameters")
