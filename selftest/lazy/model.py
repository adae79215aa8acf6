"""Lazy Part 8: the right modules, shapes and keys, zero weights, no parameters counted."""

import torch
from torch import nn


class Linear(nn.Module):
    def __init__(self, input_dim, output_dim):
        super().__init__()
        self.weight = nn.Parameter(torch.zeros(input_dim, output_dim))

    def forward(self, x):
        return x @ self.weight


class Cruncher(nn.Module):
    def __init__(self, dim, num_layers):
        super().__init__()
        self.layers = nn.ModuleList(Linear(dim, dim) for _ in range(num_layers))
        self.final = Linear(dim, 1)

    def forward(self, x):
        return torch.zeros(x.shape[0])


def num_parameters(model):
    return 0
