"""Part 4: FLOP accounting."""

from __future__ import annotations

from typing import Callable, NamedTuple

import torch
from torch.utils._python_dispatch import TorchDispatchMode


class LinearFlops(NamedTuple):
    forward: int
    backward_input: int
    backward_weight: int


def matmul_flops(m: int, k: int, n: int) -> int:
    if min(m, k, n) < 0:
        raise ValueError("sizes must be >= 0")
    return 2 * m * k * n


def linear_flops(tokens: int, d_in: int, d_out: int) -> LinearFlops:
    f = matmul_flops(tokens, d_in, d_out)
    return LinearFlops(f, f, f)  # same three sizes in every matmul


def training_flops(num_params: float, num_tokens: float) -> float:
    if num_params < 0 or num_tokens < 0:
        raise ValueError("num_params and num_tokens must be >= 0")
    return float(6 * num_params * num_tokens)


def training_seconds(total_flops: float, num_gpus: int, peak_flops_per_sec: float, mfu: float) -> float:
    if total_flops < 0:
        raise ValueError("total_flops < 0")
    if num_gpus < 1:
        raise ValueError("need at least one GPU")
    if peak_flops_per_sec <= 0:
        raise ValueError("peak must be positive")
    if not (0 < mfu <= 1):
        raise ValueError("mfu must be in (0, 1]")
    return total_flops / (num_gpus * peak_flops_per_sec * mfu)


def cruncher_flops(batch: int, dim: int, num_layers: int, input_requires_grad: bool = False) -> tuple[int, int]:
    if min(batch, dim, num_layers) < 0:
        raise ValueError("sizes must be >= 0")
    hidden = matmul_flops(batch, dim, dim)  # one dim -> dim layer
    final = matmul_flops(batch, dim, 1)     # dim -> 1
    forward = num_layers * hidden + final
    backward = forward  # dW for every weight
    # dX: the final layer and layers 2..L get their input from a layer -> always needed
    if num_layers > 0:
        backward += final + (num_layers - 1) * hidden
        if input_requires_grad:
            backward += hidden
    elif input_requires_grad:
        backward += final
    return forward, backward


_MM_OPS = {torch.ops.aten.mm: (0, 1), torch.ops.aten.addmm: (1, 2),
           torch.ops.aten.bmm: (0, 1), torch.ops.aten.baddbmm: (1, 2)}


class MatmulCounter(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.total = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        op = func.overloadpacket
        if op in _MM_OPS:
            i, j = _MM_OPS[op]
            a, b = args[i].shape, args[j].shape
            batch = a[0] if len(a) == 3 else 1
            self.total += 2 * batch * a[-2] * a[-1] * b[-1]
        return func(*args, **kwargs)


def count_matmul_flops(fn: Callable[[], object]) -> int:
    with MatmulCounter() as counter:
        fn()
    return counter.total
