"""Part 3: memory ledgers (elements x bytes, one line at a time)."""

from __future__ import annotations

from dataclasses import dataclass

import torch

FP32 = 4
BF16 = 2


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


def training_ledger(num_params: int, recipe: str) -> MemoryLedger:
    P = num_params
    if P < 0:
        raise ValueError("num_params must be >= 0")
    if recipe == "fp32_adamw":
        return MemoryLedger(parameters=FP32 * P, gradients=FP32 * P, optimizer_state=2 * FP32 * P)
    if recipe == "bf16_mixed_adamw":
        return MemoryLedger(parameters=BF16 * P, master_parameters=FP32 * P,
                            gradients=FP32 * P, optimizer_state=2 * FP32 * P)
    if recipe == "bf16_adamw":
        return MemoryLedger(parameters=BF16 * P, gradients=BF16 * P, optimizer_state=2 * FP32 * P)
    if recipe == "fp32_sgd":
        return MemoryLedger(parameters=FP32 * P, gradients=FP32 * P)
    if recipe == "fp32_sgd_momentum":
        return MemoryLedger(parameters=FP32 * P, gradients=FP32 * P, optimizer_state=FP32 * P)
    raise ValueError(f"unknown recipe {recipe!r}")


def max_trainable_params(hbm_bytes: float, bytes_per_param: float) -> float:
    if hbm_bytes < 0 or bytes_per_param <= 0:
        raise ValueError("need hbm_bytes >= 0 and bytes_per_param > 0")
    return hbm_bytes / bytes_per_param


def _elem(dtype):
    if not isinstance(dtype, torch.dtype):
        raise ValueError(f"not a dtype: {dtype!r}")
    return dtype.itemsize


def matrix_bytes(rows: int, cols: int, dtype: torch.dtype) -> int:
    if rows < 0 or cols < 0:
        raise ValueError("negative matrix size")
    return rows * cols * _elem(dtype)


def kv_cache_bytes(num_layers: int, batch: int, seq_len: int, num_kv_heads: int,
                   head_dim: int, dtype: torch.dtype) -> int:
    if min(num_layers, batch, seq_len, num_kv_heads, head_dim) < 0:
        raise ValueError("negative size")
    return 2 * num_layers * batch * seq_len * num_kv_heads * head_dim * _elem(dtype)


def cruncher_activation_bytes(batch: int, dim: int, num_layers: int, dtype: torch.dtype) -> int:
    # every x @ W keeps its x (batch x dim) for the dW matmul; the final layer too
    if min(batch, dim, num_layers) < 0:
        raise ValueError("negative size")
    return (num_layers + 1) * batch * dim * _elem(dtype)
