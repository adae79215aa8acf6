"""Part 3 reference: memory ledgers."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch


@dataclass
class MemoryLedger:
    parameters: int = 0
    master_parameters: int = 0
    gradients: int = 0
    optimizer_state: int = 0
    activations: int = 0

    @property
    def total(self) -> int:
        return (self.parameters + self.master_parameters + self.gradients
                + self.optimizer_state + self.activations)


@dataclass(frozen=True)
class _Recipe:
    """Which tensors a training recipe keeps per parameter, and in which dtype."""

    weights: torch.dtype  # what forward and backward read
    master: torch.dtype | None  # a full-precision copy the optimizer updates, if any
    gradients: torch.dtype
    states: int  # optimizer tensors per parameter: AdamW m and v, SGD momentum's buffer
    state_dtype: torch.dtype = torch.float32


_RECIPES = {
    "fp32_adamw": _Recipe(torch.float32, None, torch.float32, states=2),
    "bf16_mixed_adamw": _Recipe(torch.bfloat16, torch.float32, torch.float32, states=2),
    "bf16_adamw": _Recipe(torch.bfloat16, None, torch.bfloat16, states=2),
    "fp32_sgd": _Recipe(torch.float32, None, torch.float32, states=0),
    "fp32_sgd_momentum": _Recipe(torch.float32, None, torch.float32, states=1),
}


def _bytes(dtype: torch.dtype) -> int:
    if not isinstance(dtype, torch.dtype):
        raise ValueError(f"expected a torch.dtype, got {dtype!r}")
    return dtype.itemsize


def _check_sizes(**sizes: int) -> None:
    for name, size in sizes.items():
        if size < 0:
            raise ValueError(f"{name} must be >= 0, got {size}")


def training_ledger(num_params: int, recipe: str) -> MemoryLedger:
    _check_sizes(num_params=num_params)
    if not isinstance(recipe, str) or recipe not in _RECIPES:
        raise ValueError(f"unknown recipe {recipe!r}; known: {', '.join(_RECIPES)}")
    r = _RECIPES[recipe]
    # every line is elements x bytes per element: no per-recipe constant to remember
    return MemoryLedger(
        parameters=num_params * _bytes(r.weights),
        master_parameters=num_params * _bytes(r.master) if r.master is not None else 0,
        gradients=num_params * _bytes(r.gradients),
        optimizer_state=num_params * r.states * _bytes(r.state_dtype),
    )


def max_trainable_params(hbm_bytes: float, bytes_per_param: float) -> float:
    if hbm_bytes < 0 or bytes_per_param <= 0:
        raise ValueError(f"need hbm_bytes >= 0 and bytes_per_param > 0, got {hbm_bytes} and {bytes_per_param}")
    return hbm_bytes / bytes_per_param  # an upper bound: activations and buffers need room too


def matrix_bytes(rows: int, cols: int, dtype: torch.dtype) -> int:
    _check_sizes(rows=rows, cols=cols)
    return rows * cols * _bytes(dtype)


def kv_cache_bytes(num_layers: int, batch: int, seq_len: int, num_kv_heads: int,
                   head_dim: int, dtype: torch.dtype) -> int:
    _check_sizes(num_layers=num_layers, batch=batch, seq_len=seq_len,
                 num_kv_heads=num_kv_heads, head_dim=head_dim)
    # one K and one V vector per layer, sequence position, head
    return 2 * math.prod((num_layers, batch, seq_len, num_kv_heads, head_dim)) * _bytes(dtype)


def cruncher_activation_bytes(batch: int, dim: int, num_layers: int, dtype: torch.dtype) -> int:
    _check_sizes(batch=batch, dim=dim, num_layers=num_layers)
    # x @ W saves x for W's gradient: each of the num_layers hidden layers and the final
    # layer reads one [batch, dim] input (the model's own input included)
    return (num_layers + 1) * batch * dim * _bytes(dtype)
