"""Judges of Part 5: the harness's own, honest timing of a matmul.

The timing tests hold a student's ``time_matmul`` and ``measure_matmul_mfu``
against this measurement, so it has to be what a careful benchmark does:

* on the CPU, one thread (as the student's call runs), a warm-up, then the
  median of many products, wall clock and CPU clock;
* on CUDA, events recorded on the stream around each product (they time the
  kernel, not the Python that queued it), a warm-up first, the L2 cache flushed
  before every rep (a 256 MB buffer zeroed) so that each product reads its
  operands from HBM as in training, random operands (zeros run faster), the
  median of many reps.

``do_bench_reference`` times the same product with ``triton.testing.do_bench``
(or ``torch.utils.benchmark`` where triton is absent): the staff check that the
two agree. Run ``python -m grader.judges.part05`` on a GPU machine for a table of
both, next to the lecture's plain wall-clock loop.
"""

from __future__ import annotations

import contextlib
import statistics
import time
from typing import Iterator

import torch

from grader.harness.probes.part05 import MatmulCost, matmul_cost

L2_FLUSH_BYTES = 256 * 2**20  # more than any current GPU's L2 (H100: 50 MB, H200: 60 MB)
CPU_REPS = 15


def _operands(m: int, k: int, n: int, dtype: torch.dtype, device: torch.device):
    generator = torch.Generator(device=device).manual_seed(0)
    a = torch.randn(m, k, generator=generator, device=device, dtype=dtype)
    b = torch.randn(k, n, generator=generator, device=device, dtype=dtype)
    return a, b


@contextlib.contextmanager
def highest_fp32_precision() -> Iterator[None]:
    """Plain fp32 matmuls (no TF32) inside, whatever the process had set; restored after."""
    previous = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision("highest")
    try:
        yield
    finally:
        torch.set_float32_matmul_precision(previous)


def cpu_cost(m: int, k: int, n: int, dtype: torch.dtype, reps: int = CPU_REPS) -> tuple[float, float]:
    """Median wall and least CPU seconds of one product on one CPU thread: CPU time does stretch when a
    shared machine is busy (caches, memory bandwidth), never shrink, so the least is the product's own."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        a, b = _operands(m, k, n, dtype, torch.device("cpu"))
        for _ in range(3):
            a @ b
        walls, cpus = [], []
        for _ in range(reps):
            wall, cpu = time.perf_counter(), time.thread_time()
            a @ b
            walls.append(time.perf_counter() - wall)
            cpus.append(time.thread_time() - cpu)
        return statistics.median(walls), min(cpus)
    finally:
        torch.set_num_threads(threads)


def time_matmul_events(m: int, k: int, n: int, dtype: torch.dtype, *, device: str = "cuda",
                       warmup: int = 5, reps: int = 25) -> float:
    """Median seconds of one [m, k] @ [k, n] product, timed with CUDA events, L2 flushed."""
    device = torch.device(device)
    a, b = _operands(m, k, n, dtype, device)
    out = torch.empty(m, n, device=device, dtype=dtype)
    flush = torch.empty(L2_FLUSH_BYTES, dtype=torch.int8, device=device)
    torch.cuda.synchronize(device)  # work someone else left queued must not land in our reps
    for _ in range(warmup):
        torch.matmul(a, b, out=out)
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for start, end in zip(starts, ends):
        flush.zero_()  # evicts a and b from L2; outside the events, so not timed
        start.record()
        torch.matmul(a, b, out=out)
        end.record()
    torch.cuda.synchronize(device)
    return statistics.median(s.elapsed_time(e) for s, e in zip(starts, ends)) / 1e3  # ms -> s


@matmul_cost.implement
def measure(m: int, k: int, n: int, dtype: torch.dtype, device: str) -> MatmulCost:
    if torch.device(device).type == "cuda":
        if not torch.cuda.is_available():
            raise RuntimeError("this process cannot use CUDA (is the device visible to the sandbox?)")
        with highest_fp32_precision():
            seconds = time_matmul_events(m, k, n, dtype, device=device)
        return MatmulCost(seconds, seconds, torch.cuda.get_device_name(device))
    wall, cpu = cpu_cost(m, k, n, dtype)
    return MatmulCost(wall, cpu, "cpu")


def do_bench_reference(m: int, k: int, n: int, dtype: torch.dtype, *, device: str = "cuda") -> float:
    """Median seconds of the same product by a standard benchmark tool."""
    device = torch.device(device)
    a, b = _operands(m, k, n, dtype, device)
    try:
        from triton.testing import do_bench
    except ImportError:
        from torch.utils.benchmark import Timer

        timer = Timer(stmt="a @ b", globals={"a": a, "b": b})
        return timer.blocked_autorange(min_run_time=0.5).median
    # do_bench flushes L2 itself; warmup and rep are in milliseconds
    return do_bench(lambda: a @ b, warmup=50, rep=200, return_mode="median") / 1e3


def time_matmul_wall(m: int, k: int, n: int, dtype: torch.dtype, *, device: str = "cuda",
                     warmup: int = 3, trials: int = 10) -> float:
    """The lecture's loop: synchronise, wall clock around ``trials`` products, synchronise."""
    device = torch.device(device)
    a, b = _operands(m, k, n, dtype, device)
    for _ in range(warmup):
        a @ b
    torch.cuda.synchronize(device)
    start = time.perf_counter()
    for _ in range(trials):
        a @ b
    torch.cuda.synchronize(device)
    return (time.perf_counter() - start) / trials


SIZES = ((8192, 8192, 8192, torch.bfloat16), (4096, 8192, 2048, torch.bfloat16),
         (4096, 4096, 4096, torch.float32))


def main() -> None:
    if not torch.cuda.is_available():
        raise SystemExit("needs a CUDA device")
    print(torch.cuda.get_device_name())
    print(f"{'m':>6} {'k':>6} {'n':>6} {'dtype':>9} {'events ms':>10} {'bench ms':>9} {'wall ms':>8} {'TFLOP/s':>8}")
    with highest_fp32_precision():
        for m, k, n, dtype in SIZES:
            events = time_matmul_events(m, k, n, dtype)
            bench = do_bench_reference(m, k, n, dtype)
            wall = time_matmul_wall(m, k, n, dtype)
            name = str(dtype).removeprefix("torch.")
            print(f"{m:>6} {k:>6} {n:>6} {name:>9} {events * 1e3:>10.3f} {bench * 1e3:>9.3f} "
                  f"{wall * 1e3:>8.3f} {2 * m * k * n / events / 1e12:>8.1f}")


if __name__ == "__main__":
    main()
