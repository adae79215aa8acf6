"""Probes for Part 3."""

from __future__ import annotations

import gc
from typing import Any

import torch
import torch.nn.functional as F

from grader.harness.impl import Implementation
from grader.harness.probes import probe


@probe("memory.ledger_total", subject="memory.MemoryLedger.total")
def ledger_total(impl: Implementation, fields: dict[str, int]) -> Any:
    """``MemoryLedger(**fields).total`` of the implementation's own ledger class."""
    return impl.function("memory.MemoryLedger")(**fields).total


# --------------------------------------------------------------------------- CUDA allocator
def _training_step(batch: int, dim: int, num_layers: int, seed: int) -> dict[str, int]:
    """One fp32 AdamW step of a deep linear model (the Cruncher's shape, harness-owned),
    with the CUDA allocator's ``memory_allocated`` read between phases.

    Returns the bytes each phase added: parameters, activations (forward's saved
    tensors and the input, alive until backward), gradients, optimizer state.
    """
    device = torch.device("cuda")
    gen = torch.Generator(device).manual_seed(seed)
    allocated = torch.cuda.memory_allocated
    torch.cuda.synchronize()

    start = allocated()
    shapes = [(dim, dim)] * num_layers + [(dim, 1)]
    weights = [torch.nn.Parameter(torch.randn(s, device=device, generator=gen) / dim**0.5) for s in shapes]
    parameters = allocated() - start

    optimizer = torch.optim.AdamW(weights, lr=1e-3, foreach=False)  # per-tensor: no fused buffers
    y = torch.randn(batch, device=device, generator=gen)
    ready = allocated()
    loss = _forward(weights, torch.randn(batch, dim, device=device, generator=gen), y)
    activations = allocated() - ready  # the input, the hidden states, the output and the loss

    loss.backward()  # frees the graph and everything it saved
    del loss
    gradients = allocated() - ready  # back to `ready` plus one gradient per weight

    before_step = allocated()
    optimizer.step()  # creates m and v; the step counters stay on the CPU
    optimizer_state = allocated() - before_step
    torch.cuda.synchronize()
    return {"parameters": parameters, "activations": activations,
            "gradients": gradients, "optimizer_state": optimizer_state}


def _forward(weights: list[torch.Tensor], x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    for w in weights[:-1]:
        x = x @ w  # [batch, dim]: autograd keeps each layer's input for its weight gradient
    return F.mse_loss((x @ weights[-1]).squeeze(-1), y)  # output [batch], loss []


@probe("memory.cuda_step_ledger", subject="memory.training_ledger", timeout=120)
def cuda_step_ledger(impl: Implementation, batch: int, dim: int, num_layers: int) -> Any:
    """The allocator's view of one training step next to the implementation's ledger.

    None without a CUDA device. Otherwise ``measured`` (bytes per phase),
    ``ledger`` (``training_ledger(P, "fp32_adamw")``), ``activations``
    (``cruncher_activation_bytes``) and ``tensors`` (allocations per phase: each may
    be rounded up to the allocator's 512-byte blocks).
    """
    if not torch.cuda.is_available():
        return None
    _training_step(batch, dim, num_layers, seed=1)  # warm-up: cuBLAS workspaces (forward and backward threads)
    gc.collect()  # no garbage of earlier steps or tests may be freed in the middle of a phase
    gc.disable()
    try:
        measured = _training_step(batch, dim, num_layers, seed=0)
    finally:
        gc.enable()
    # the implementation runs after the measurement: nothing it allocates can blur it
    num_params = num_layers * dim * dim + dim
    weights = num_layers + 1
    return {
        "measured": measured,
        "ledger": impl.function("memory.training_ledger")(num_params, "fp32_adamw"),
        "activations": impl.function("memory.cruncher_activation_bytes")(batch, dim, num_layers, torch.float32),
        "tensors": {"parameters": weights, "gradients": weights, "optimizer_state": 2 * weights,
                    "activations": num_layers + 3},  # inputs of every layer, the output, the loss
    }
