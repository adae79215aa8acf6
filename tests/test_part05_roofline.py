"""Part 5 — MFU and arithmetic intensity (assignment/roofline.py).

Datasheet figures are accepted within 0.1% (989e12 for 989.5e12 passes; the
sparse 1979e12 does not). Formulas are compared to 1e-12 relative: any correct
arrangement of the same few operations agrees that closely; the compute-bound
verdict is compared exactly, on cases built so that it is never a rounding call.

Timings cannot be compared with a reference: machines differ and are noisy. On
the CPU the test checks what the timing did (how many products, of what shape
and dtype) and holds the figure between bounds taken from the products the
probe saw run in the same call. On a GPU it compares with the harness's own
measurement (``grader/harness/cuda_bench.py``: CUDA events, warm-up, L2 flushed).
"""

import re

import pytest
import torch
from hypothesis import example, given, settings

from grader.harness.expect import (
    BOOL, FLOAT, STR, Optional, Tuple, agree, agree_run, check, close, differs, require,
)
from grader.harness.faults import Mismatch, named_inputs
from grader.harness.oracle import cases
from grader.harness.show import show
from tests.strategies import part05 as S

EXACT_MATH = close(rel=1e-12)
DATASHEET = close(rel=1e-3)
PEAKS = "roofline.PEAK_FLOPS_PER_SEC"
HBM = "roofline.HBM_BYTES_PER_SEC"


def _figure(where: str, value, expected: float) -> None:
    """One datasheet figure: a number within 0.1% of the reference's."""
    check(value, FLOAT, where)
    if differs(value, expected, DATASHEET):
        sparse = value != 0 and abs(value / expected - 2) < 0.01
        hint = " (twice the dense peak: the datasheet's headline figure assumes 2:4 sparsity)" if sparse else ""
        raise Mismatch(where, "wrong value" + hint, got=value, expected=expected, how=DATASHEET.describe())


def _table(impl, table: str) -> dict:
    got = impl.run("constant", table)
    require(type(got) is dict, table, f"wrong type: {show(got)}; expected a dict keyed by chip name",
            show_values=False)
    return got


def _keys(table) -> str:
    return ", ".join(sorted(map(show, table))) or "nothing"


def test_peak_flops_table(impl, oracle):
    expected = oracle.run("constant", PEAKS)
    got = _table(impl, PEAKS)
    for chip, peaks in expected.items():
        mine = got.get(chip)
        require(type(mine) is dict, PEAKS,
                f"{PEAKS}[{chip!r}] should be a dict of dtype -> FLOP/s; it is {show(mine)}", show_values=False)
        for dtype, peak in peaks.items():
            where = f"{PEAKS}[{chip!r}][{dtype}]"
            require(dtype in mine, PEAKS, f"no entry {where} (the {chip} entry has {_keys(mine)})",
                    show_values=False)
            _figure(where, mine[dtype], peak)
    fp8 = [d for d in (torch.float8_e4m3fn, torch.float8_e5m2) if d in got["A100"]]
    require(not fp8, PEAKS, f"the A100 has no FP8 tensor cores, but its table lists {_keys(fp8)}",
            show_values=False)


def test_hbm_table(impl, oracle):
    expected = oracle.run("constant", HBM)
    got = _table(impl, HBM)
    for chip, bandwidth in expected.items():
        where = f"{HBM}[{chip!r}]"
        require(chip in got, HBM, f"no entry {where} (the table has {_keys(got)})", show_values=False)
        _figure(where, got[chip], bandwidth)


@given(case=cases("roofline.promised_flops_per_sec", S.promised_cases()))
@example(case=("NVIDIA H100 80GB HBM3", torch.bfloat16))
@example(case=("NVIDIA GH200 480GB", torch.bfloat16))
@example(case=("NVIDIA A100-SXM4-80GB", torch.float8_e4m3fn))
def test_promised_flops_per_sec(impl, oracle, case):
    """The value within 0.1%, or ValueError where the spec asks for one."""
    agree_run(impl, oracle, "roofline.promised", *case, returns=Tuple(STR, Optional(FLOAT)),
              compare=DATASHEET, subject="roofline.promised_flops_per_sec")


@given(case=cases("roofline.mfu", S.mfu_cases()))
@example(case=(989.5e12, 2.0, 989.5e12))
def test_mfu(impl, oracle, case):
    agree(impl, oracle, "roofline.mfu", *case, returns=FLOAT, compare=EXACT_MATH)


@given(case=cases("roofline.matmul_arithmetic_intensity", S.intensity_cases()))
@example(case=(1024, 8192, 8192))
@example(case=(1, 8192, 8192, 2))
def test_matmul_arithmetic_intensity(impl, oracle, case):
    agree(impl, oracle, "roofline.matmul_arithmetic_intensity", *case, returns=FLOAT, compare=EXACT_MATH)


@given(case=cases("roofline.roofline", S.roofline_cases()))
@example(case=(819.2, 989.5e12, 3.35e12))
@example(case=(295, 295 * 3_350_000_000_000, 3_350_000_000_000))
def test_roofline(impl, oracle, case):
    """ridge_point, attainable_flops_per_sec and is_compute_bound of one (intensity, peak, bandwidth)."""
    intensity, peak, bandwidth = case
    agree(impl, oracle, "roofline.ridge_point", peak, bandwidth, returns=FLOAT, compare=EXACT_MATH)
    agree(impl, oracle, "roofline.attainable_flops_per_sec", *case, returns=FLOAT, compare=EXACT_MATH)
    agree(impl, oracle, "roofline.is_compute_bound", *case, returns=BOOL)


# --------------------------------------------------------------------------- timing
@settings(max_examples=5)
@given(case=cases("roofline.time_matmul", S.cpu_timing_cases()))
@example(case=(256, 256, 256, torch.float32, None, None))
def test_time_matmul_cpu(impl, case):
    """Structural, not a speed test: which products ran, and bounds that any honest timing meets.

    The probe times every product the call runs (on the CPU a product is done when
    it returns). No honest figure for one product is below the fastest of them.
    The timed trials are products after the warm-up, plus loop overhead: so the
    figure is at most the slowest of those plus the call's time outside all
    products shared over the trials, and ``trials`` times it fits in the call's
    wall time. The bounds come from the student's own run on the same clock, so a
    busy machine moves them together.
    """
    m, k, n, dtype, warmup, trials = case
    report = impl.run("roofline.time_matmul_traced", m, k, n, dtype, "cpu", warmup, trials)
    warmup, trials = (3, 10) if warmup is None else (warmup, trials)
    fn = "roofline.time_matmul"
    inputs = named_inputs(fn, (m, k, n, dtype, "cpu") + (() if case[4] is None else (warmup, trials)))
    seconds, wall, products = report["seconds"], report["wall_seconds"], report["product_seconds"]
    check(seconds, FLOAT, fn, inputs)

    shape = f"a @ b of [{m}, {k}] @ [{k}, {n}] in {str(dtype).removeprefix('torch.')} on cpu"
    others = report["other_products"]
    require(len(products) >= warmup + trials, fn,
            f"ran {len(products)} products {shape}; expected at least warmup + trials = {warmup + trials}"
            + (f" (it also ran {', '.join(others)})" if others else ""),
            inputs=inputs, show_values=False)
    fastest = min(products)
    require(seconds >= 0.95 * fastest, fn,
            f"less than the fastest product took ({fastest:.3g} s): time the trials themselves, "
            "after the warm-up, with a wall clock (time.perf_counter()), and divide by trials",
            inputs=inputs, got=seconds, expected=fastest)
    outside = wall - sum(products)
    slowest = min(wall / trials, max(products[warmup:]) + outside / trials)
    require(seconds <= 1.02 * slowest + 1e-5, fn,
            f"more than one product can take (at most {slowest:.3g} s): return the wall-clock seconds "
            "of ONE product (not the total of the trials, not milliseconds, not CPU time)",
            inputs=inputs, got=seconds, expected=fastest)


# GPU: the large products the lecture times, and one fp32 (plain, non-tensor-core) product.
CUDA_SIZES = ((8192, 8192, 8192, torch.bfloat16), (4096, 8192, 2048, torch.bfloat16),
              (4096, 4096, 4096, torch.float32))
TIME_WINDOW = (0.6, 2.5)  # the student's seconds / the harness's; slack for a plain wall-clock loop
MFU_FLOOR = 0.6  # of the harness's own MFU for the same product


def _inputs(fn: str, m: int, k: int, n: int, dtype: torch.dtype) -> str:
    return named_inputs(fn, (m, k, n, dtype, "cuda"))


@pytest.mark.cuda
def test_time_matmul_cuda(impl):
    fn = "roofline.time_matmul"
    low, high = TIME_WINDOW
    for m, k, n, dtype in CUDA_SIZES:
        inputs = _inputs(fn, m, k, n, dtype)
        report = impl.run("roofline.time_matmul_cuda", m, k, n, dtype)
        seconds, harness = check(report["seconds"], FLOAT, fn, inputs), report["harness_seconds"]
        ratio = seconds / harness
        require(ratio >= low, fn,
                f"{ratio:.3g}x the harness's own measurement (at least {low}x): too fast to be true. The "
                "clock was read before the kernels finished: torch.cuda.synchronize() before reading it",
                inputs=inputs, got=seconds, expected=harness)
        require(ratio <= high, fn,
                f"{ratio:.3g}x the harness's own measurement (at most {high}x): return the seconds of ONE "
                "product (not the total, not milliseconds), timed after the warm-up",
                inputs=inputs, got=seconds, expected=harness)


def _known_gpu() -> bool:
    words = set(re.split(r"[^A-Za-z0-9]+", torch.cuda.get_device_name().upper()))
    return bool(words & set(S.CHIPS))


@pytest.mark.cuda
def test_measure_matmul_mfu_cuda(impl):
    if not _known_gpu():
        pytest.skip(f"no datasheet peak for {torch.cuda.get_device_name()} (needs an A100, H100 or H200)")
    fn = "roofline.measure_matmul_mfu"
    for m, k, n, dtype in CUDA_SIZES:
        inputs = _inputs(fn, m, k, n, dtype)
        report = impl.run("roofline.measure_matmul_mfu_cuda", m, k, n, dtype)
        value = check(report["mfu"], FLOAT, fn, inputs)
        peak = check(report["peak"], FLOAT, "roofline.promised_flops_per_sec",
                     named_inputs("roofline.promised_flops_per_sec", (report["device_name"], dtype)))
        # the harness's time against the student's own peak: a wrong table is test_peak_flops_table's business
        harness_mfu = 2 * m * k * n / report["harness_seconds"] / peak
        require(value <= 1.0, fn,
                f"MFU {value:.3g} is above 1.0, which no GPU reaches: the clock was read before the "
                "kernels finished (torch.cuda.synchronize() before reading it)",
                inputs=inputs, got=value, expected=harness_mfu)
        require(value >= MFU_FLOOR * harness_mfu, fn,
                f"MFU {value:.3g} is below the floor {MFU_FLOOR * harness_mfu:.3g} ({MFU_FLOOR} x the "
                f"harness's own {harness_mfu:.3g} against the same peak): count 2*m*k*n FLOPs and time "
                "one product after the warm-up",
                inputs=inputs, got=value, expected=harness_mfu)
        require(value <= harness_mfu / MFU_FLOOR, fn,
                f"MFU {value:.3g} is far above the harness's own {harness_mfu:.3g} (at most "
                f"{harness_mfu / MFU_FLOOR:.3g}): too fast to be true",
                inputs=inputs, got=value, expected=harness_mfu)
