"""Part 4 — FLOP accounting.

The memory ledger (Part 3) answers "does it fit?"; the FLOP ledger answers "how
long will it take?". A FLOP (floating-point operation) is one addition or one
multiplication. Mind the case: FLOPs counts work, FLOP/s is a hardware speed.

In a dense model almost all the work is matrix multiplication. Multiplying an
[m, k] matrix by a [k, n] matrix computes m*n outputs, each a length-k dot
product of k multiplies and k adds: 2*m*k*n FLOPs. We ignore the smaller terms
(bias adds, activations, normalisation) on purpose: this is napkin math.

Lecture example, one linear layer with X [100, 256] and W [256, 512]:

    forward   Y  = X @ W      2 * 100 * 256 * 512 = 26,214,400 FLOPs
    backward  dX = dY @ W.T   2 * 100 * 512 * 256 = 26,214,400 FLOPs
    backward  dW = X.T @ dY   2 * 256 * 100 * 512 = 26,214,400 FLOPs

so backward is about 2x forward, and a training step about 3x forward: not a
rule of thumb but two matmuls of the same size. Per token and parameter that
is 2 (forward) + 4 (backward) = 6 FLOPs, hence the famous 6PD.

Bad arguments (negative sizes, zero GPUs, an MFU outside (0, 1]) raise
``ValueError`` with a message saying what was wrong.

Check yourself against torch: ``torch.utils.flop_counter.FlopCounterMode``
counts the FLOPs of whatever runs inside it.
"""

from __future__ import annotations

from typing import Callable, NamedTuple


class LinearFlops(NamedTuple):
    """FLOPs of the three matmuls of one linear layer ``Y = X @ W``."""

    forward: int  # Y = X @ W
    backward_input: int  # dX = dY @ W.T
    backward_weight: int  # dW = X.T @ dY


def matmul_flops(m: int, k: int, n: int) -> int:
    """FLOPs of one [m, k] @ [k, n] matrix multiply: ``2 * m * k * n``, an exact ``int``.

    Each of the m*n outputs is a dot product of length k: k multiplies and k adds.
    Negative sizes raise ``ValueError``.

    Example: matmul_flops(100, 256, 512) -> 26_214_400
    """
    raise NotImplementedError("flops.matmul_flops")


def linear_flops(tokens: int, d_in: int, d_out: int) -> LinearFlops:
    """The three matmuls of a linear layer with X [tokens, d_in] and W [d_in, d_out].

    forward:         Y  = X @ W       [tokens, d_in]  @ [d_in, d_out]
    backward_input:  dX = dY @ W.T    [tokens, d_out] @ [d_out, d_in]
    backward_weight: dW = X.T @ dY    [d_in, tokens]  @ [tokens, d_out]

    Each multiplies the same three sizes, so each is ``2 * tokens * d_in * d_out``.
    Return a ``LinearFlops`` (defined above) of ints.

    Example: linear_flops(100, 256, 512)
        -> LinearFlops(forward=26214400, backward_input=26214400, backward_weight=26214400)
    """
    raise NotImplementedError("flops.linear_flops")


def training_flops(num_params: float, num_tokens: float) -> float:
    """Total training compute ``6 * P * D`` as a ``float``.

    One token passing through P parameters costs about 2P FLOPs forward (each
    weight takes part in one multiply-add) and 4P backward (input gradients and
    weight gradients), so 6P per token and 6PD for D processed tokens. D counts
    every token the model actually processes: 100B tokens seen for 3 epochs is
    D = 300B. Batch size does not appear: it regroups the same tokens.
    Negative arguments raise ``ValueError``.

    Example: training_flops(70e9, 15e12) -> 6.3e24   (a 70B model on 15T tokens)
    """
    raise NotImplementedError("flops.training_flops")


def training_seconds(total_flops: float, num_gpus: int, peak_flops_per_sec: float, mfu: float) -> float:
    """Wall-clock seconds to do ``total_flops`` on ``num_gpus`` GPUs at utilisation ``mfu``.

    Each GPU delivers ``mfu * peak_flops_per_sec`` useful FLOP/s, so the time is
    ``total_flops / (num_gpus * peak_flops_per_sec * mfu)``. Dividing by the peak
    alone gives only an ideal lower bound; MFU (Part 5) says how far real
    training falls short of it.

    Raise ``ValueError`` if ``num_gpus < 1``, ``peak_flops_per_sec <= 0``,
    ``mfu`` is outside (0, 1], or ``total_flops < 0``.

    Example: training_seconds(6.3e24, 1024, 989.5e12, 0.5) -> about 1.2435e7 s (144 days)
    """
    raise NotImplementedError("flops.training_seconds")


def cruncher_flops(batch: int, dim: int, num_layers: int, input_requires_grad: bool = False) -> tuple[int, int]:
    """Exact matmul FLOPs ``(forward, backward)`` of one training step of a ``Cruncher``.

    A ``Cruncher(dim, num_layers)`` (Part 8) applies ``num_layers`` linear layers
    [dim -> dim] and then a final linear layer [dim -> 1], each ``x @ weight``
    with no bias, to an input x [batch, dim].

    forward:  one matmul per layer, ``2 * batch * d_in * d_out``.
    backward: autograd runs only the matmuls whose result someone needs.
      * dW for every layer: every weight is a Parameter.
      * dX for a layer only if that layer's *input* requires grad. Every layer's
        input is the previous layer's output (which does), except the first
        layer's input: the data x, which requires grad only when
        ``input_requires_grad`` is True.
    So backward is exactly 2x forward only when the input requires grad.
    Negative sizes raise ``ValueError``.

    Examples:
        cruncher_flops(100, 256, 1)       -> (13158400, 13209600)
        cruncher_flops(100, 256, 1, True) -> (13158400, 26316800)
        cruncher_flops(8, 4, 0)           -> (64, 64)   (only the final layer, no dX)
    """
    raise NotImplementedError("flops.cruncher_flops")


def count_matmul_flops(fn: Callable[[], object]) -> int:
    """Call ``fn()`` once and return the FLOPs of every matrix multiply it runs, backward included.

    Count the ATen ops ``mm``, ``addmm``, ``bmm`` and ``baddbmm``: ``torch.matmul``,
    ``@``, ``einsum`` and ``F.linear`` all lower to these, and so do the matmuls
    autograd runs in ``backward()``. Use a
    ``torch.utils._python_dispatch.TorchDispatchMode``: its
    ``__torch_dispatch__(self, func, types, args=(), kwargs=None)`` sees every
    ATen op (``func.overloadpacket`` is e.g. ``torch.ops.aten.mm``); it must still
    run the op and return ``func(*args, **(kwargs or {}))``.

    FLOPs per op, from the operands' shapes:
        mm(a [m, k], b [k, n])                   2*m*k*n
        addmm(c, a [m, k], b [k, n])             2*m*k*n   (c is the added term: ignore it)
        bmm(a [B, m, k], b [B, k, n])            2*B*m*k*n
        baddbmm(c, a [B, m, k], b [B, k, n])     2*B*m*k*n

    The result must agree with ``torch.utils.flop_counter.FlopCounterMode`` on
    these ops. Write the mode and each op's FLOPs yourself: ``torch.utils.flop_counter``
    (``FlopCounterMode``, and its per-op formulas such as ``mm_flop``) and the
    profiler are only to check your count against, and the tests read flops.py
    (and the modules of yours it uses) to see that they are not used here.

    Example: for fn = lambda: (x @ w).sum().backward() with x [3, 4] requiring
    grad and w [4, 5] not, the forward mm is 120 FLOPs and the backward runs one
    mm for dx (also 120): count_matmul_flops(fn) -> 240.
    """
    raise NotImplementedError("flops.count_matmul_flops")
