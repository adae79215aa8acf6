"""Probes for Part 5."""

from __future__ import annotations

import time

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from grader.harness import cuda_bench
from grader.harness.impl import Implementation
from grader.harness.probes import probe


@probe("roofline.promised", subject="roofline.promised_flops_per_sec")
def promised(impl: Implementation, device_name: str, dtype: torch.dtype):
    """("ok", peak), or ("ValueError", None) where the spec asks for a ValueError."""
    try:
        return "ok", impl.function("roofline.promised_flops_per_sec")(device_name, dtype)
    except ValueError:
        return "ValueError", None


# matmul ops -> where their two matrices are among the arguments
_MATMULS = {
    torch.ops.aten.mm: (0, 1),
    torch.ops.aten.addmm: (1, 2),
    torch.ops.aten.bmm: (0, 1),
    torch.ops.aten.baddbmm: (1, 2),
}


class _MatmulLog(TorchDispatchMode):
    """Writes down every matmul op (name, operand shapes, dtype, device) and how long it ran.

    On the CPU an op is done when it returns, so the time around it is the product's.
    """

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[tuple, float]] = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        operands = _MATMULS.get(func.overloadpacket)
        if operands is None:
            return func(*args, **(kwargs or {}))
        start = time.perf_counter()
        out = func(*args, **(kwargs or {}))
        seconds = time.perf_counter() - start
        a, b = (args[i] for i in operands)
        what = (func.overloadpacket.__name__, tuple(a.shape), tuple(b.shape), a.dtype, a.device.type)
        self.seen.append((what, seconds))
        return out


@probe("roofline.time_matmul_traced", subject="roofline.time_matmul", timeout=30)
def time_matmul_traced(impl: Implementation, m: int, k: int, n: int, dtype: torch.dtype,
                       device: str, warmup: int | None, trials: int | None):
    """The implementation's time_matmul, with the products it ran, each timed, and the call's wall time.

    ``warmup``/``trials`` of None leave the implementation's defaults.
    """
    time_matmul = impl.function("roofline.time_matmul")
    counts = () if warmup is None else (warmup, trials)
    # one thread: a busy machine then slows each product evenly, instead of leaving a
    # team of threads waiting on its slowest member (the caller's thread count is restored)
    torch.set_num_threads(1)
    log = _MatmulLog()
    start = time.perf_counter()
    with log:
        seconds = time_matmul(m, k, n, dtype, device, *counts)
    wall = time.perf_counter() - start
    wanted = ("mm", (m, k), (k, n), dtype, torch.device(device).type)
    others = sorted({what for what, _ in log.seen if what != wanted}, key=str)[:3]
    return {
        "seconds": seconds,
        "wall_seconds": wall,
        "product_seconds": [took for what, took in log.seen if what == wanted],
        "other_products": [f"{op} {tuple(a)} @ {tuple(b)} in {str(d).removeprefix('torch.')} on {dev}"
                           for op, a, b, d, dev in others],
    }


@probe("roofline.time_matmul_cuda", subject="roofline.time_matmul", timeout=120)
def time_matmul_cuda(impl: Implementation, m: int, k: int, n: int, dtype: torch.dtype):
    """The implementation's time_matmul on cuda, and the harness's own measurement."""
    with cuda_bench.highest_fp32_precision():
        seconds = impl.function("roofline.time_matmul")(m, k, n, dtype, "cuda")
        harness = cuda_bench.time_matmul_events(m, k, n, dtype)
    return {"seconds": seconds, "harness_seconds": harness}


@probe("roofline.measure_matmul_mfu_cuda", subject="roofline.measure_matmul_mfu", timeout=120)
def measure_matmul_mfu_cuda(impl: Implementation, m: int, k: int, n: int, dtype: torch.dtype):
    """The implementation's MFU and its own peak for this GPU, and the harness's time."""
    name = torch.cuda.get_device_name()
    with cuda_bench.highest_fp32_precision():
        value = impl.function("roofline.measure_matmul_mfu")(m, k, n, dtype, "cuda")
        harness = cuda_bench.time_matmul_events(m, k, n, dtype)
    peak = impl.function("roofline.promised_flops_per_sec")(name, dtype)
    return {"mfu": value, "peak": peak, "device_name": name, "harness_seconds": harness}
