"""Part 4 reference: FLOP accounting."""

from __future__ import annotations

from typing import Callable, NamedTuple

import torch
from torch.utils._python_dispatch import TorchDispatchMode

aten = torch.ops.aten


class LinearFlops(NamedTuple):
    forward: int  # Y = X @ W
    backward_input: int  # dX = dY @ W.T
    backward_weight: int  # dW = X.T @ dY


def _check_sizes(**sizes: int) -> None:
    for name, size in sizes.items():
        if size < 0:
            raise ValueError(f"{name} must be >= 0, got {size}")


def matmul_flops(m: int, k: int, n: int) -> int:
    _check_sizes(m=m, k=k, n=n)
    # each of the m*n outputs is a length-k dot product: k multiplies and k adds
    return 2 * m * k * n


def linear_flops(tokens: int, d_in: int, d_out: int) -> LinearFlops:
    _check_sizes(tokens=tokens, d_in=d_in, d_out=d_out)
    # the three matmuls contract different dims but multiply the same three sizes
    return LinearFlops(
        forward=2 * tokens * d_in * d_out,
        backward_input=2 * tokens * d_out * d_in,
        backward_weight=2 * d_in * tokens * d_out,
    )


def training_flops(num_params: float, num_tokens: float) -> float:
    if num_params < 0 or num_tokens < 0:
        raise ValueError(f"num_params and num_tokens must be >= 0, got {num_params} and {num_tokens}")
    # per token: 2P forward, 4P backward (input grads and weight grads)
    return float(6 * num_params * num_tokens)


def training_seconds(total_flops: float, num_gpus: int, peak_flops_per_sec: float, mfu: float) -> float:
    if total_flops < 0:
        raise ValueError(f"total_flops must be >= 0, got {total_flops}")
    if num_gpus < 1:
        raise ValueError(f"num_gpus must be >= 1, got {num_gpus}")
    if peak_flops_per_sec <= 0:
        raise ValueError(f"peak_flops_per_sec must be > 0, got {peak_flops_per_sec}")
    if not 0 < mfu <= 1:
        raise ValueError(f"mfu must be in (0, 1], got {mfu}")
    return total_flops / (num_gpus * peak_flops_per_sec * mfu)


def cruncher_flops(batch: int, dim: int, num_layers: int, input_requires_grad: bool = False) -> tuple[int, int]:
    _check_sizes(batch=batch, dim=dim, num_layers=num_layers)
    shapes = [(dim, dim)] * num_layers + [(dim, 1)]  # (d_in, d_out) of every layer, final last
    forward = backward = 0
    for layer, (d_in, d_out) in enumerate(shapes):
        flops = 2 * batch * d_in * d_out
        forward += flops
        backward += flops  # dW: every weight is a Parameter
        # dX only where the layer's input needs a gradient: every later layer's input is
        # the previous layer's output, but the first layer's input is the data
        if layer > 0 or input_requires_grad:
            backward += flops
    return forward, backward


def _mm(a: torch.Tensor, b: torch.Tensor) -> int:
    (m, k), n = a.shape, b.shape[-1]
    return 2 * m * k * n


def _bmm(a: torch.Tensor, b: torch.Tensor) -> int:
    (batch, m, k), n = a.shape, b.shape[-1]
    return 2 * batch * m * k * n


# op -> FLOPs from its arguments; addmm/baddbmm's first argument is the added term
_FORMULAS = {
    aten.mm: lambda args: _mm(args[0], args[1]),
    aten.addmm: lambda args: _mm(args[1], args[2]),
    aten.bmm: lambda args: _bmm(args[0], args[1]),
    aten.baddbmm: lambda args: _bmm(args[1], args[2]),
}


class _MatmulCounter(TorchDispatchMode):
    """Sees every ATen op after autograd and decompositions, backward included."""

    def __init__(self) -> None:
        super().__init__()
        self.flops = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        formula = _FORMULAS.get(func.overloadpacket)
        if formula is not None:
            self.flops += formula(args)
        return func(*args, **(kwargs or {}))


def count_matmul_flops(fn: Callable[[], object]) -> int:
    counter = _MatmulCounter()
    with counter:
        fn()
    return counter.flops
