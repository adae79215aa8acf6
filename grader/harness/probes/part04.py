"""Probes for Part 4: functions built from plain descriptions, for ``count_matmul_flops`` to count."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from grader.harness.impl import Implementation
from grader.harness.probe import probe


# kind -> shapes of its operands from its dims: a, b, then the added term or bias if any
OPERANDS = {
    "mm": lambda m, k, n: [(m, k), (k, n)],
    "addmm": lambda m, k, n: [(m, k), (k, n), (n,)],
    # the added term a column, broadcast along n: the product's shapes are its second and third operands
    "addmm_column": lambda m, k, n: [(m, k), (k, n), (m, 1)],
    "bmm": lambda B, m, k, n: [(B, m, k), (B, k, n)],
    "baddbmm": lambda B, m, k, n: [(B, m, k), (B, k, n), (B, m, n)],
    # the added term broadcast over the batch: its shape is no operand's of the product (c, then a and b)
    "baddbmm_broadcast": lambda B, m, k, n: [(B, m, k), (B, k, n), (1, m, n)],
    "matmul3d": lambda B, m, k, n: [(B, m, k), (k, n)],
    "matmul4d": lambda B1, B2, m, k, n: [(B1, B2, m, k), (B1, B2, k, n)],
    "einsum bmk,bkn->bmn": lambda B, m, k, n: [(B, m, k), (B, k, n)],
    "einsum bsd,df->bsf": lambda B, s, d, f: [(B, s, d), (d, f)],
    "einsum bqhd,bkhd->bhqk": lambda B, q, k, h, d: [(B, q, h, d), (B, k, h, d)],
    # F.linear takes the weight as [d_out, d_in]
    "linear": lambda t, d_in, d_out: [(t, d_in), (d_out, d_in), (d_out,)],
    "linear_nobias": lambda t, d_in, d_out: [(t, d_in), (d_out, d_in)],
    "linear3d": lambda B, s, d_in, d_out: [(B, s, d_in), (d_out, d_in), (d_out,)],
    # not a matrix multiply at the ATen level (aten.convolution and its backward): it counts 0, where
    # torch's FlopCounterMode counts it (the spec's counter counts the four matmul ops only)
    "conv1d": lambda B, c_in, c_out, width, extra: [(B, c_in, width + extra - 1), (c_out, c_in, width)],
    # matrix-vector and vector-vector products (aten.mv, aten.dot): none of the four ops either, 0
    "mv": lambda m, k: [(m, k), (k,)],
    "dot": lambda k: [(k,), (k,)],
    # their fused forms with an added term (aten.addmv, aten.addbmm: a batch of products summed): 0 as well
    "addmv": lambda m, k: [(m, k), (k,), (m,)],
    "addbmm": lambda B, m, k, n: [(B, m, k), (B, k, n), (m, n)],
    # each of the four into a given tensor: the op's .out overload (no autograd: its operands never require grad)
    "mm_out": lambda m, k, n: [(m, k), (k, n)],
    "addmm_out": lambda m, k, n: [(m, k), (k, n), (n,)],
    "bmm_out": lambda B, m, k, n: [(B, m, k), (B, k, n)],
    "baddbmm_out": lambda B, m, k, n: [(B, m, k), (B, k, n), (B, m, n)],
}
NO_GRAD = frozenset({"mm_out", "addmm_out", "bmm_out", "baddbmm_out"})  # out= has no autograd


def _apply(kind: str, t: list[torch.Tensor]) -> torch.Tensor:
    if kind == "mm":
        return torch.mm(t[0], t[1])
    if kind in ("addmm", "addmm_column"):
        return torch.addmm(t[2], t[0], t[1])
    if kind == "bmm":
        return torch.bmm(t[0], t[1])
    if kind in ("baddbmm", "baddbmm_broadcast"):
        return torch.baddbmm(t[2], t[0], t[1])
    if kind in ("matmul3d", "matmul4d"):
        return t[0] @ t[1]
    if kind.startswith("einsum "):
        return torch.einsum(kind.removeprefix("einsum "), t[0], t[1])
    if kind == "conv1d":
        return F.conv1d(t[0], t[1])
    if kind in ("mv", "dot"):
        return t[0] @ t[1]
    if kind == "addmv":
        return torch.addmv(t[2], t[0], t[1])
    if kind == "addbmm":
        return torch.addbmm(t[2], t[0], t[1])
    if kind.endswith("_out"):
        out = torch.empty(*t[0].shape[:-1], t[1].shape[-1], device=t[0].device)
        if kind == "mm_out":
            return torch.mm(t[0], t[1], out=out)
        if kind == "bmm_out":
            return torch.bmm(t[0], t[1], out=out)
        return (torch.addmm if kind == "addmm_out" else torch.baddbmm)(t[2], t[0], t[1], out=out)
    return F.linear(*t)  # linear, linear_nobias, linear3d


def build_scenario(ops: list, backward: bool, seed: int, device: str = "cpu", refused: list | None = None):
    """The function a scenario describes, over fresh seeded inputs made here (outside it). On the
    ``meta`` device tensors have shapes and no data: run-sized products, counted without being run.
    ``refused``: where the error a second call raises is kept (whoever called it may have caught it)."""
    generator = torch.Generator().manual_seed(seed)
    inputs = []
    for kind, dims, grads in ops:
        shapes = OPERANDS[kind](*dims)
        inputs.append([
            (torch.randn(shape, generator=generator) if device == "cpu" else torch.empty(shape, device=device))
            .requires_grad_(bool(grad))
            for shape, grad in zip(shapes, grads)
        ])

    calls = []

    def fn() -> None:
        calls.append(1)
        if len(calls) > 1:  # the spec: fn() is called once (a second call would also step, or backprop, twice)
            error = RuntimeError("fn() was called a second time: count_matmul_flops calls fn() once, inside its "
                                 "counter (no warm-up call outside it)")
            if refused is not None:
                refused.append(error)
            raise error
        outputs = [_apply(kind, tensors) for (kind, _, _), tensors in zip(ops, inputs)]
        if backward:
            # a scalar loss over every output that has a graph; sum adds no matmuls
            graphed = [out.sum() for out in outputs if out.requires_grad]
            if not graphed:
                raise RuntimeError("fn() could not run backward: its outputs have no autograd graph "
                                   "(was it called under torch.no_grad() or torch.inference_mode()?)")
            sum(graphed).backward()

    # named as a student's own script would name it, not as the harness's closure (``__module__`` "grader...",
    # ``build_scenario.<locals>.fn``): a count_matmul_flops that asks who made fn learns nothing
    fn.__module__, fn.__name__, fn.__qualname__ = "__main__", "step", "step"
    return fn


@probe(subject="flops.count_matmul_flops")
def count_scenario(impl: Implementation, ops: list, backward: bool, seed: int, device: str = "cpu"):
    """The implementation's count_matmul_flops on the function the scenario describes."""
    refused: list[RuntimeError] = []
    fn = build_scenario(ops, backward, seed, device, refused)
    counted = impl.function("flops.count_matmul_flops")(fn)
    if refused:  # a second call's error, caught: raised again, still naming the line of the call
        raise refused[0]
    return counted
