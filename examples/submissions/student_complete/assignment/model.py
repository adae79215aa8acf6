"""Part 8 — Linear and Cruncher.

A bias-free linear layer with a variance-preserving initialisation, and a deep
linear model built from it, used for the memory and FLOP ledgers.
"""

from __future__ import annotations

import math

import torch
from torch import nn


def _check_dim(value: int, name: str, minimum: int = 1) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise ValueError(f"{name} must be an int >= {minimum}, got {value!r}")


class Linear(nn.Module):
    """``y = x @ weight`` with ``weight`` of shape (input_dim, output_dim), no bias.

    Initialisation: normal with std ``1 / sqrt(input_dim)``, truncated at three
    standard deviations. Each output is a sum of ``input_dim`` products, so this
    std keeps outputs at about the size of the inputs whatever the width.
    Note that ``nn.init.trunc_normal_`` takes its cut-offs ``a`` and ``b`` as
    absolute values, not in units of std, so they are scaled here.
    """

    def __init__(self, input_dim: int, output_dim: int):
        super().__init__()
        _check_dim(input_dim, "input_dim")
        _check_dim(output_dim, "output_dim")
        self.input_dim = input_dim
        self.output_dim = output_dim
        self.weight = nn.Parameter(torch.empty(input_dim, output_dim))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        std = 1.0 / math.sqrt(self.input_dim)
        nn.init.trunc_normal_(self.weight, mean=0.0, std=std, a=-3 * std, b=3 * std)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x @ self.weight

    def extra_repr(self) -> str:
        return f"input_dim={self.input_dim}, output_dim={self.output_dim}"


class Cruncher(nn.Module):
    """``num_layers`` Linear(dim, dim) layers, then Linear(dim, 1); output shape (batch,)."""

    def __init__(self, dim: int, num_layers: int):
        super().__init__()
        _check_dim(dim, "dim")
        _check_dim(num_layers, "num_layers", minimum=0)
        self.layers = nn.ModuleList([Linear(dim, dim) for _ in range(num_layers)])
        self.final = Linear(dim, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.layers:
            x = layer(x)
        return self.final(x).squeeze(-1)  # (batch, 1) -> (batch,)


def num_parameters(model: nn.Module) -> int:
    """Number of scalar parameters (shared parameters counted once)."""
    return sum(p.numel() for p in model.parameters())
