"""Part 8 reference: Linear and Cruncher, the lecture's deep linear model."""

from __future__ import annotations

import math

import torch
from torch import nn


class Linear(nn.Module):
    """``y = x @ weight`` with weight (input_dim, output_dim), no bias."""

    def __init__(self, input_dim: int, output_dim: int) -> None:
        super().__init__()
        if input_dim < 1 or output_dim < 1:
            raise ValueError(f"Linear needs positive sizes, got ({input_dim}, {output_dim})")
        # 1/sqrt(input_dim) keeps each output ~1 whatever the width (Xavier); the cut at
        # ±3 std removes rare huge weights. trunc_normal_'s a and b are absolute values,
        # so the cut must be scaled by std: a=-3, b=3 would cut at ±3·sqrt(input_dim) std.
        std = 1 / math.sqrt(input_dim)
        self.weight = nn.Parameter(torch.empty(input_dim, output_dim))
        nn.init.trunc_normal_(self.weight, mean=0.0, std=std, a=-3 * std, b=3 * std)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x @ self.weight  # (..., input_dim) @ (input_dim, output_dim) -> (..., output_dim)


class Cruncher(nn.Module):
    """``num_layers`` dim -> dim linear layers, then dim -> 1; one number per example."""

    def __init__(self, dim: int, num_layers: int) -> None:
        super().__init__()
        if dim < 1:
            raise ValueError(f"dim must be positive, got {dim}")
        if num_layers < 0:
            raise ValueError(f"num_layers must be >= 0, got {num_layers}")
        self.layers = nn.ModuleList([Linear(dim, dim) for _ in range(num_layers)])
        self.final = Linear(dim, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.layers:
            x = layer(x)  # (batch, dim) -> (batch, dim)
        return self.final(x).squeeze(-1)  # (batch, 1) -> (batch,)


def num_parameters(model: nn.Module) -> int:
    # parameters() lists a shared parameter once and leaves buffers (running statistics) out
    return sum(p.numel() for p in model.parameters())
