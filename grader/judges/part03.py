"""Judges of Part 3: the CUDA allocator's view of one training step."""

from __future__ import annotations

import gc

import torch
import torch.nn.functional as F

from grader.harness.probes.part03 import StepAllocations, cuda_step_allocations


def _training_step(batch: int, dim: int, num_layers: int, seed: int) -> dict[str, int]:
    """One fp32 AdamW step of a deep linear model (the Cruncher's shape, the harness's own),
    with ``memory_allocated`` read between phases: the bytes each phase added."""
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
    x = torch.randn(batch, dim, device=device, generator=gen)
    for w in weights[:-1]:
        x = x @ w  # [batch, dim]: autograd keeps each layer's input for its weight gradient
    loss = F.mse_loss((x @ weights[-1]).squeeze(-1), y)  # output [batch], loss []
    del x
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


@cuda_step_allocations.implement
def measure(batch: int, dim: int, num_layers: int) -> StepAllocations:
    if not torch.cuda.is_available():
        raise RuntimeError("this process cannot use CUDA (is the device visible to the sandbox?)")
    _training_step(batch, dim, num_layers, seed=1)  # warm-up: cuBLAS workspaces (forward and backward threads)
    gc.collect()  # no garbage of earlier steps may be freed in the middle of a phase
    gc.disable()
    try:
        measured = _training_step(batch, dim, num_layers, seed=0)
    finally:
        gc.enable()
    weights = num_layers + 1
    tensors = {"parameters": weights, "gradients": weights, "optimizer_state": 2 * weights,
               "activations": num_layers + 3}  # inputs of every layer, the output, the loss
    return StepAllocations(measured, tensors)
