"""Probes and judges for Part 5."""

from __future__ import annotations

import gc
import os
import time
from dataclasses import dataclass
from typing import Any

import torch

from grader.harness.digest import Secret
from grader.harness.impl import Implementation
from grader.harness.probe import Report, judge, probe

DATASHEET = Secret(rel=1e-3)  # datasheet figures are accepted within 0.1%


@probe(subject="roofline.promised_flops_per_sec", secret=DATASHEET)
def promised(impl: Implementation, device_name: str, dtype: torch.dtype) -> Any:
    """("ok", peak), or ("ValueError", None) where the implementation raised the ValueError the spec asks for."""
    try:
        return "ok", impl.function("roofline.promised_flops_per_sec")(device_name, dtype)
    except ValueError:
        return "ValueError", None


@probe(subject="roofline.time_matmul", timeout=30, batch=False)
def time_matmul_call(impl: Implementation, m: int, k: int, n: int, dtype: torch.dtype, device: str,
                     warmup: int | None, trials: int | None) -> Any:
    """The implementation's ``time_matmul``, as it returned it (``warmup``/``trials`` None: its defaults).

    Run with ``impl.measure``: the door times the whole call from outside, wall
    clock and CPU, which is what the test holds the figure against.
    """
    counts = () if warmup is None else (warmup, trials)
    return impl.function("roofline.time_matmul")(m, k, n, dtype, device, *counts)


@dataclass(frozen=True)
class Products(Report):
    """A ``time_matmul`` call watched from inside, op by op (a dispatch mode): what it returned and each
    product of its inputs torch ran for it. Raw observations, judged on the trusted side (a submission gains
    nothing by forging them: running the products asked for is all they show)."""

    figure: Any  # what time_matmul returned
    products: tuple[float, ...]  # the seconds of each [m, k] @ [k, n] it ran (or [n, k] @ [k, m]), in order
    shapes: tuple[tuple[int, ...], ...]  # the first product of an [m, k] with another operand: both shapes
    constant: bool  # an operand of a product held one value throughout (zeros, ones: not drawn)
    threads: int  # Python threads the call started: what they run is not seen here
    # what ran from the first timed product to the last (the products and what ran between them): what a
    # figure that times more than the products can take in; what ran before (the warm-up, making inputs,
    # work before the clock starts) or after is not counted, so that no call buys itself a larger allowance
    # with ops outside the timed loop (the test also caps what a trial may count)
    other_seconds: float  # the time of those ops (views, permutes, copies ...) but random draws
    draws_between: int  # its ops that draw random numbers after its first product (inputs made afresh)
    drawn_seconds: float  # ... and their time
    ops: int  # those ops, of every kind, the timed products included
    op_seconds: float  # what the watch costs an op, measured here on a trivial one: what it adds to the figure
    # of its products: those whose operands were not dense float32 tensors (a sparse one, another dtype), and
    # the most threads torch was set to use at one (the harness times one thread's products)
    other_operands: int
    torch_threads: int
    # the watch makes each warm-up product last WARMUP_DELAY longer and the first timed one FIRST_TRIAL_DELAY
    # (inside the op, so ``products`` includes it): a figure that times the warm-up too, or keeps one trial's
    # time (the last) for the mean, is then far from the mean of the timed products, which a free CPU hides
    delayed: bool
    # ops with a product's operands and result whose result is not their product (``_multiplied``): addmm with
    # alpha=0 has a product's shapes, and BLAS returns without multiplying; and what checking that cost the
    # timed products (it runs inside the op's handler, so a figure of the watched call takes it in)
    unmultiplied: int
    checked_seconds: float


WARMUP_DELAY = 0.03
# (a median of per-trial times, p, is caught while p < 0.8 * (p + delay / trials): at 15 ms and 10 trials while a
# product takes under 6 ms, which a busy machine's preempted thin product outlasted and let one through; at
# 50 ms, under 20 ms, and with three trials under 67 ms)
FIRST_TRIAL_DELAY = 0.05
DEFAULT_COUNTS = (3, 10)  # time_matmul's warmup and trials (SPEC)

# ATen's ops that draw random numbers: what making inputs costs
_DRAWS = {"randn", "rand", "randint", "randperm", "randn_like", "rand_like", "randint_like", "normal", "normal_",
          "uniform_", "random_", "bernoulli", "bernoulli_", "exponential_", "cauchy_", "log_normal_", "geometric_",
          "multinomial"}


def _operand_pairs(tensors: list, m: int, k: int, n: int) -> list[tuple]:
    """Every pair of neighbouring tensor operands of an op that multiply an [..., m, k] (or [..., n, k], for
    bᵀ @ aᵀ) by an [..., k, x], in order (where m == k == n, addmm's added term and a have a product's shapes
    too). Recognised by the shapes asked for, not by the op's name: this is no FLOP counter (Part 4 asks
    students to write one). The thin products' test draws m, k and n apart, so that no copy or elementwise op
    of a or b looks like a product; where they meet (the 256-cubed example), ``_may_multiply`` rules those out
    first."""
    return [(a, b) for a, b in zip(tensors, tensors[1:]) if a.dim() >= 2 and b.dim() >= 2
            and tuple(a.shape[-2:]) in ((m, k), (n, k)) and b.shape[-2] == k]


# ATen's copies: an [m, n] result copied into an out= tensor (matmul's out= under inference mode runs as mm
# and then a copy_) is no product, though with m == k == n its shapes are a product's
_COPIES = {"copy_", "copy", "_copy_from", "_copy_from_and_resize", "_to_copy", "clone"}


def _may_multiply(func) -> bool:
    """Whether an op may be a product: not an elementwise op (torch tags those ``pointwise``: with square
    inputs, ``a + b`` has a product's shapes) nor a copy. A rule out, by torch's own tags and copies' names:
    no FLOP counter (Part 4 asks students to write one)."""
    return torch.Tag.pointwise not in func.tags and func.overloadpacket.__name__ not in _COPIES


def _multiplied(out: torch.Tensor, a: torch.Tensor, b: torch.Tensor, added: tuple = ()) -> bool:
    """Whether ``out`` holds a @ b (or its transpose), checked as Freivalds does: out @ r against a @ (b @ r),
    for an r drawn after the op ran (no op can aim at it), at O(mk + kn + mn) where the product
    costs O(mkn); or a @ b plus one of the op's other tensors (``added``: addmm's term, a bias). Honest
    float32 products differ by about 1e-6 of the product; an op that has a product's shapes and skips the
    work (addmm with alpha=0 leaves BLAS nothing to do), by all of it. Operands held anywhere but on the CPU
    (the meta device runs nothing) are no product either."""
    if any(t.device.type != "cpu" for t in (out, a, b, *added)):
        return False
    if any(t.layout != torch.strided for t in (out, *added)):
        return False  # a sparse result (sampled_addmm computes a few entries of a @ b) is no product
    if any(t.layout != torch.strided for t in (a, b)):
        return True  # counted as other operands (``other_operands``), with their own message
    # in the operands' own float dtype where it is float32 or float64 (no copy of a, b or the result inside a
    # timed loop): a float32 matrix-vector product errs by about 1e-6 of the product, far under the bound
    dtype = torch.float64 if torch.float64 in (a.dtype, b.dtype, out.dtype) else torch.float32
    a, b, out = (t.detach().to(dtype) for t in (a, b, out))
    if tuple(out.shape[-2:]) != (a.shape[-2], b.shape[-1]):
        out = out.transpose(-1, -2)
    r = torch.randn(b.shape[-1], 1, dtype=dtype, generator=_draw())
    expected = a @ (b @ r)
    scale = float(expected.norm())
    if scale == 0.0:
        return False  # drawn inputs never make it (an operand of one value is ``constant``, and said so)
    left = out @ r - expected
    if float(left.norm()) <= 1e-3 * scale:
        return True
    for term in added:  # what is left is one of the op's own tensors, broadcast to the result
        try:
            term = term.detach().to(dtype).expand(out.shape)
        except RuntimeError:
            continue
        if float((left - term @ r).norm()) <= 1e-3 * scale:
            return True
    return False


def _others(tensors: list, pair: tuple) -> tuple:
    """An op's tensors but the two it multiplies: what it may add to their product."""
    return tuple(t for t in tensors if t is not pair[0] and t is not pair[1])


def _draw(made: list = []) -> torch.Generator:  # noqa: B006 - one generator per process, seeded unpredictably
    if not made:
        made.append(torch.Generator().manual_seed(int.from_bytes(os.urandom(8), "little") >> 1))
    return made[0]


def _constant(matrix: torch.Tensor) -> bool:
    """Whether a matrix holds one value at about 80 places spread over it (drawn values never do): run
    inside the watch's handler, unwatched, on a strided view (no copy of the matrix), since it may fall
    inside a timed loop."""
    if matrix.layout != torch.strided:
        return False  # a sparse operand: ``other_operands`` says so
    rows, cols = matrix.shape[-2:]
    picked = matrix.detach()[..., :: max(1, rows // 8), :: max(1, cols // 8)].reshape(-1)
    return picked.numel() > 0 and bool((picked == picked[0]).all())


@probe(subject="roofline.time_matmul", timeout=30, batch=False)
def time_matmul_products(impl: Implementation, m: int, k: int, n: int, warmup: int | None,
                         trials: int | None, slowed: bool = True) -> Products:
    """``time_matmul(m, k, n, float32, "cpu", warmup, trials)`` under a dispatch mode that times each op torch
    runs for it (the op alone, inside the mode: not the mode's own cost, not the loop's); ``warmup`` and
    ``trials`` None: left to its defaults. ``slowed``: each warm-up product is made to last ``WARMUP_DELAY``
    longer, and the first timed one ``FIRST_TRIAL_DELAY`` (a sleep inside the op, counted in its seconds)."""
    import threading

    from torch.utils._python_dispatch import TorchDispatchMode

    products, odd, ops, other, draws, drawn, constant = [], [], [0], [0.0], [0], [0.0], [False]
    other_operands, torch_threads, unmultiplied, checked = [0], [0], [0], [0.0]
    pending = [0, 0.0]  # ops and other seconds since the last product: counted if a timed product follows
    delaying = [False]  # on in the call only (not while the watch's own cost is measured)
    due_warmup = DEFAULT_COUNTS[0] if warmup is None else warmup

    class Watch(TorchDispatchMode):
        @classmethod
        def _should_skip_dynamo(cls) -> bool:
            return False  # (the default wraps __torch_dispatch__ for dynamo, importing it at the first op: 2 s)

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            pending[0] += 1
            kwargs = kwargs or {}
            # an op made of others (matmul, einsum, linear: under inference_mode they reach a mode whole)
            # runs as those others, each seen here
            with self:
                out = func.decompose(*args, **kwargs)
            if out is not NotImplemented:
                return out
            tensors = [arg for arg in args if isinstance(arg, torch.Tensor)]
            pairs = _operand_pairs(tensors, m, k, n) if _may_multiply(func) else []
            operands = pairs[0] if pairs else None
            candidates = [p for p in pairs if p[1].shape[-1] == (n if p[0].shape[-2] == m else m)]
            product = bool(candidates)
            began = time.perf_counter()
            out = func(*args, **kwargs)
            if product and delaying[0]:
                index = len(products)
                time.sleep(WARMUP_DELAY if index < due_warmup else FIRST_TRIAL_DELAY if index == due_warmup else 0)
            seconds = time.perf_counter() - began
            if product and not (isinstance(out, torch.Tensor) and tuple(out.shape[-2:]) in ((m, n), (n, m))):
                product, operands = False, None  # an [m, k] and a [k, n] in, and no [m, n] out: no product
            if product:
                checking = time.perf_counter()
                # alpha other than 1 (addmm's, baddbmm's): at 0, or at 1e-300 (0 in float32), BLAS returns the
                # added term at once, which may hold a @ b made before; no honest product passes one
                multiplied = [] if kwargs.get("alpha", 1) != 1 else [
                    pair for pair in candidates if _multiplied(out, *pair, _others(tensors, pair))]
                if multiplied:
                    operands = multiplied[0]
                    constant[0] = constant[0] or any(_constant(o) for o in operands)
                elif all(o.device.type == "cpu" for p in candidates for o in p) and \
                        any(_constant(o) for p in candidates for o in p):
                    operands = candidates[0]
                    constant[0] = True  # one value throughout (zeros?) make no checkable product: said as such
                else:  # a product's shapes, and no product: counted as other ops
                    product, operands = False, None
                    unmultiplied[0] += 1
                if product and len(products) >= due_warmup:
                    checked[0] += time.perf_counter() - checking
            if operands is None:
                if func.overloadpacket.__name__ not in _DRAWS:
                    pending[1] += seconds
                elif products or odd:
                    draws[0] += 1
                    drawn[0] += seconds
            elif product:
                if len(products) > due_warmup:  # a timed product after another: what ran between them
                    ops[0] += pending[0]
                    other[0] += pending[1]
                elif len(products) == due_warmup:  # the first timed one: what came before is not the loop's
                    ops[0] += 1
                pending[0], pending[1] = 0, 0.0
                products.append(seconds)
                other_operands[0] += not all(o.layout == torch.strided and o.dtype == torch.float32 for o in operands)
                torch_threads[0] = max(torch_threads[0], torch.get_num_threads())
            elif not odd:
                odd.append(tuple(tuple(operand.shape) for operand in operands))
            return out

    op_seconds = _watch_cost(Watch)
    products.clear()
    constant[0] = False
    ops[0], other[0], draws[0], drawn[0], pending[0], pending[1] = 0, 0.0, 0, 0.0, 0, 0.0
    other_operands[0], torch_threads[0], unmultiplied[0], checked[0] = 0, 0, 0, 0.0
    started, start = [], threading.Thread.start

    def counted(thread, *args, **kwargs):
        started.append(1)
        return start(thread, *args, **kwargs)

    threading.Thread.start = counted
    collecting = gc.isenabled()
    gc.disable()  # as timeit does: the watch makes garbage, and a collection in the timed loop is no product
    delaying[0] = slowed
    try:
        with Watch():
            counts = () if warmup is None else (warmup, trials)
            figure = impl.function("roofline.time_matmul")(m, k, n, torch.float32, "cpu", *counts)
    finally:
        delaying[0] = False
        threading.Thread.start = start
        if collecting:
            gc.enable()
    return Products(figure, tuple(products), odd[0] if odd else (), constant[0], len(started),
                    other[0], draws[0], drawn[0], ops[0], op_seconds, other_operands[0], torch_threads[0], slowed,
                    unmultiplied[0], checked[0])


def _watch_cost(watch: type, repeats: int = 5, count: int = 200) -> float:
    """The seconds a dispatch mode of class ``watch`` adds to one op: a trivial op (a view) timed with and
    without it, the least of a few rounds (a round a busy machine interrupted counts for nothing)."""
    x = torch.empty(4)

    def per_op() -> float:
        began = time.perf_counter()
        for _ in range(count):
            x.view(-1)
        return (time.perf_counter() - began) / count

    bare = min(per_op() for _ in range(repeats))
    with watch():
        watched = min(per_op() for _ in range(repeats))
    return max(watched - bare, 0.0)


@dataclass(frozen=True)
class MatmulCost(Report):
    """One [m, k] @ [k, n] product as the harness measured it: median of many, warmed up."""

    wall_seconds: float
    cpu_seconds: float
    device_name: str  # torch.cuda.get_device_name() on CUDA, "cpu" on the CPU


@judge(subject="roofline.time_matmul", clean=True, record=False, timeout=120)
def matmul_cost(m: int, k: int, n: int, dtype: torch.dtype, device: str) -> MatmulCost:
    """The harness's own timing of one product, in a process where no submission ever ran:
    on the CPU a median of single-threaded products; on CUDA, CUDA events around each
    product after a warm-up, the L2 cache flushed before each (``grader/judges/part05.py``,
    staff-only). Never recorded: the handout has no measurements."""
