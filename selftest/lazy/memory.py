"""Lazy Part 3: every answer has the right type and shape, and is wrong."""

from dataclasses import dataclass


@dataclass
class MemoryLedger:
    parameters: int = 0
    master_parameters: int = 0
    gradients: int = 0
    optimizer_state: int = 0
    activations: int = 0

    @property
    def total(self):
        return -1


def training_ledger(num_params, recipe):
    return MemoryLedger(parameters=1)


def max_trainable_params(hbm_bytes, bytes_per_param):
    return -1.0


def matrix_bytes(rows, cols, dtype):
    return -1


def kv_cache_bytes(num_layers, batch, seq_len, num_kv_heads, head_dim, dtype):
    return -1


def cruncher_activation_bytes(batch, dim, num_layers, dtype):
    return -1
