"""Part 3 — memory ledgers.

"Will it fit?" is answered line by line: for every kind of object the GPU
holds, number of elements times bytes per element. A figure such as
"16 bytes per parameter" is the sum of one particular ledger, not a constant.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

import torch

from .dtypes import bytes_per_element


@dataclass
class MemoryLedger:
    """Bytes held during training, one field per line of the ledger."""

    parameters: int = 0
    master_parameters: int = 0
    gradients: int = 0
    optimizer_state: int = 0
    activations: int = 0

    @property
    def total(self) -> int:
        return sum(getattr(self, f.name) for f in fields(self))


# Each recipe lists, per ledger line, (copies of the parameter count, dtype).
# "optimizer_state" for AdamW is two moments (m and v); SGD with momentum has one buffer.
_RECIPES: dict[str, dict[str, list[tuple[int, torch.dtype]]]] = {
    "fp32_adamw": {
        "parameters": [(1, torch.float32)],
        "gradients": [(1, torch.float32)],
        "optimizer_state": [(2, torch.float32)],
    },
    "bf16_mixed_adamw": {
        "parameters": [(1, torch.bfloat16)],
        "master_parameters": [(1, torch.float32)],
        "gradients": [(1, torch.float32)],
        "optimizer_state": [(2, torch.float32)],
    },
    "bf16_adamw": {
        "parameters": [(1, torch.bfloat16)],
        "gradients": [(1, torch.bfloat16)],
        "optimizer_state": [(2, torch.float32)],
    },
    "fp32_sgd": {
        "parameters": [(1, torch.float32)],
        "gradients": [(1, torch.float32)],
    },
    "fp32_sgd_momentum": {
        "parameters": [(1, torch.float32)],
        "gradients": [(1, torch.float32)],
        "optimizer_state": [(1, torch.float32)],
    },
}


def _check_count(value, name: str) -> int:
    """A non-negative whole number; integral floats such as 7e9 are accepted."""
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a number, got {value!r}")
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError(f"{name} must be a whole number, got {value!r}")
        value = int(value)
    if not isinstance(value, int):
        raise ValueError(f"{name} must be an int, got {value!r}")
    if value < 0:
        raise ValueError(f"{name} must be >= 0, got {value}")
    return value


def training_ledger(num_params: int, recipe: str) -> MemoryLedger:
    """Model-state bytes for training ``num_params`` parameters with ``recipe``.

    Recipes (bytes per parameter):
        fp32_adamw         4 params + 4 grads + 8 moments                 = 16
        bf16_mixed_adamw   2 params + 4 fp32 master + 4 grads + 8 moments = 18
        bf16_adamw         2 params + 2 grads + 8 fp32 moments            = 12
        fp32_sgd           4 params + 4 grads                             =  8
        fp32_sgd_momentum  4 params + 4 grads + 4 momentum                = 12
    Activations depend on the batch, not on the recipe, so they stay 0 here.
    """
    num_params = _check_count(num_params, "num_params")
    if recipe not in _RECIPES:
        raise ValueError(f"unknown recipe {recipe!r}; known: {sorted(_RECIPES)}")
    lines = {
        line: sum(copies * num_params * bytes_per_element(dtype) for copies, dtype in entries)
        for line, entries in _RECIPES[recipe].items()
    }
    return MemoryLedger(**lines)


def max_trainable_params(hbm_bytes: float, bytes_per_param: float) -> float:
    """Upper bound on the parameters whose model state fits: ``hbm_bytes / bytes_per_param``.

    An upper bound only: activations, workspaces and fragmentation also need room.
    Example: 8 GPUs x 80e9 bytes at 18 B/param -> about 35.6e9 parameters.
    """
    if hbm_bytes < 0:
        raise ValueError(f"hbm_bytes must be >= 0, got {hbm_bytes}")
    if bytes_per_param <= 0:
        raise ValueError(f"bytes_per_param must be > 0, got {bytes_per_param}")
    return float(hbm_bytes) / float(bytes_per_param)


def matrix_bytes(rows: int, cols: int, dtype: torch.dtype) -> int:
    """Bytes of a dense ``rows x cols`` matrix (12288 x 49152 in fp32 = 2,415,919,104)."""
    rows = _check_count(rows, "rows")
    cols = _check_count(cols, "cols")
    return rows * cols * bytes_per_element(dtype)


def kv_cache_bytes(
    num_layers: int,
    batch: int,
    seq_len: int,
    num_kv_heads: int,
    head_dim: int,
    dtype: torch.dtype,
) -> int:
    """Inference KV cache: one K and one V tensor of [batch, seq, kv_heads, head_dim] per layer."""
    sizes = {
        "num_layers": num_layers,
        "batch": batch,
        "seq_len": seq_len,
        "num_kv_heads": num_kv_heads,
        "head_dim": head_dim,
    }
    counts = [_check_count(value, name) for name, value in sizes.items()]
    return 2 * math.prod(counts) * bytes_per_element(dtype)


def cruncher_activation_bytes(batch: int, dim: int, num_layers: int, dtype: torch.dtype) -> int:
    """Bytes of the non-parameter tensors autograd saves in a ``Cruncher`` forward.

    Each linear layer ``y = x @ W`` saves its input x [batch, dim] to compute
    ``dW = x.T @ dy`` later. A Cruncher has ``num_layers`` dim -> dim layers plus
    the final dim -> 1 layer, whose input is also [batch, dim]:
    ``(num_layers + 1) * batch * dim`` elements.
    """
    batch = _check_count(batch, "batch")
    dim = _check_count(dim, "dim")
    num_layers = _check_count(num_layers, "num_layers")
    return (num_layers + 1) * batch * dim * bytes_per_element(dtype)
