"""Part 4 — FLOP accounting.

One FLOP is one addition or one multiplication. An [m, k] @ [k, n] matmul does
m*n dot products of length k, i.e. 2*m*k*n FLOPs; in a dense model these
matmuls are nearly all the work, so that is what we count.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import torch
from torch.utils._python_dispatch import TorchDispatchMode


class LinearFlops(NamedTuple):
    """FLOPs of the three matmuls of one linear layer ``Y = X @ W``."""

    forward: int  # Y = X @ W
    backward_input: int  # dX = dY @ W.T
    backward_weight: int  # dW = X.T @ dY


def _check_sizes(**sizes: int) -> None:
    for name, value in sizes.items():
        if value < 0:
            raise ValueError(f"{name} must be >= 0, got {value}")


def matmul_flops(m: int, k: int, n: int) -> int:
    """FLOPs of one [m, k] @ [k, n] multiply: ``2 * m * k * n``."""
    _check_sizes(m=m, k=k, n=n)
    return 2 * m * k * n


def linear_flops(tokens: int, d_in: int, d_out: int) -> LinearFlops:
    """Forward and the two backward matmuls of a linear layer; all three have the same size."""
    _check_sizes(tokens=tokens, d_in=d_in, d_out=d_out)
    return LinearFlops(
        forward=matmul_flops(tokens, d_in, d_out),  # [tokens, d_in] @ [d_in, d_out]
        backward_input=matmul_flops(tokens, d_out, d_in),  # [tokens, d_out] @ [d_out, d_in]
        backward_weight=matmul_flops(d_in, tokens, d_out),  # [d_in, tokens] @ [tokens, d_out]
    )


def training_flops(num_params: float, num_tokens: float) -> float:
    """``6 * P * D``: 2 FLOPs per parameter and token forward, 4 backward."""
    _check_sizes(num_params=num_params, num_tokens=num_tokens)
    return 6.0 * float(num_params) * float(num_tokens)


def training_seconds(total_flops: float, num_gpus: int, peak_flops_per_sec: float, mfu: float) -> float:
    """Wall-clock time: ``total_flops / (num_gpus * peak * mfu)``."""
    if total_flops < 0:
        raise ValueError(f"total_flops must be >= 0, got {total_flops}")
    if num_gpus < 1:
        raise ValueError(f"num_gpus must be >= 1, got {num_gpus}")
    if peak_flops_per_sec <= 0:
        raise ValueError(f"peak_flops_per_sec must be > 0, got {peak_flops_per_sec}")
    if not 0 < mfu <= 1:
        raise ValueError(f"mfu must be in (0, 1], got {mfu}")
    return float(total_flops) / (num_gpus * peak_flops_per_sec * mfu)


def cruncher_flops(batch: int, dim: int, num_layers: int, input_requires_grad: bool = False) -> tuple[int, int]:
    """Exact matmul FLOPs ``(forward, backward)`` of one Cruncher training step.

    Layers, in order: ``num_layers`` times [dim -> dim], then the final [dim -> 1].
    Backward always computes dW for each layer; it computes dX for a layer only
    when that layer's input needs a gradient, which is every layer but the
    first, and the first too when the data itself requires grad.
    """
    _check_sizes(batch=batch, dim=dim, num_layers=num_layers)
    layer_shapes = [(dim, dim)] * num_layers + [(dim, 1)]

    forward = 0
    backward = 0
    for position, (d_in, d_out) in enumerate(layer_shapes):
        flops = linear_flops(batch, d_in, d_out)
        forward += flops.forward
        backward += flops.backward_weight
        input_needs_grad = position > 0 or input_requires_grad
        if input_needs_grad:
            backward += flops.backward_input
    return forward, backward


def _mm_flops(a_shape, b_shape) -> int:
    m, k = a_shape
    n = b_shape[-1]
    return 2 * m * k * n


def _bmm_flops(a_shape, b_shape) -> int:
    batch, m, k = a_shape
    n = b_shape[-1]
    return 2 * batch * m * k * n


class _MatmulFlopCounter(TorchDispatchMode):
    """Sees every ATen op; adds up the FLOPs of the matrix multiplies."""

    def __init__(self) -> None:
        super().__init__()
        self.flops = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)

        packet = func.overloadpacket
        if packet is torch.ops.aten.mm:
            self.flops += _mm_flops(args[0].shape, args[1].shape)
        elif packet is torch.ops.aten.addmm:
            # addmm(input, mat1, mat2): input is the added term, not a matmul operand.
            self.flops += _mm_flops(args[1].shape, args[2].shape)
        elif packet is torch.ops.aten.bmm:
            self.flops += _bmm_flops(args[0].shape, args[1].shape)
        elif packet is torch.ops.aten.baddbmm:
            self.flops += _bmm_flops(args[1].shape, args[2].shape)
        return out


def count_matmul_flops(fn: Callable[[], object]) -> int:
    """Run ``fn()`` once and return the FLOPs of all mm/addmm/bmm/baddbmm ops it ran.

    The dispatch mode sits below autograd, so it also sees the matmuls that
    ``backward()`` runs, and the lowered forms of ``@``, ``einsum`` and ``F.linear``.
    """
    if not callable(fn):
        raise ValueError(f"fn must be callable, got {fn!r}")
    counter = _MatmulFlopCounter()
    with counter:
        fn()
    return counter.flops
