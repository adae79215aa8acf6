"""Part 5 — MFU and arithmetic intensity (assignment/roofline.py).

Datasheet figures are accepted within 0.1% (989e12 for 989.5e12 passes; the
sparse 1979e12 does not). Formulas are compared to 1e-12 relative: any correct
arrangement of the same few operations agrees that closely; the compute-bound
verdict is compared exactly, on cases built so that it is never a rounding call.

Timings cannot be compared with a reference: machines differ and are noisy. What
a timing figure is held against is measured from outside the implementation: the
door times each call (wall clock and CPU), and, when grading, the harness times
the same product in a process where no submission ever ran (the judge
``matmul_cost``: on a GPU with CUDA events, warm-up, L2 flushed).
"""

import re
import statistics
import time
import weakref
from dataclasses import dataclass, field

import pytest
import torch
from hypothesis import settings

from grader.harness import spec
from grader.harness.ask import ask, check, refuse, refuse_unless, require
from grader.harness.cases import example, given
from grader.harness.compare import Compare, differs
from grader.harness.faults import named_inputs
from grader.harness.probes.part05 import (DATASHEET, DEFAULT_COUNTS, FIRST_TRIAL_DELAY, WARMUP_DELAY, matmul_cost,
                                          promised, time_matmul_call, time_matmul_products)
from grader.harness.schema import FLOAT, STR, Optional, Tuple
from grader.harness.show import show
from grader.harness.source import Module, is_clock, package_names, replaced_at_import
from grader.harness.transport import Observe
from tests.strategies import part05 as S

EXACT_MATH = 1e-12
DATASHEET_COMPARE = Compare(rel=DATASHEET.rel)
PEAKS = spec.constant("roofline.PEAK_FLOPS_PER_SEC", secret=DATASHEET)
HBM = spec.constant("roofline.HBM_BYTES_PER_SEC", secret=DATASHEET)
mfu = spec.function("roofline.mfu")
matmul_arithmetic_intensity = spec.function("roofline.matmul_arithmetic_intensity")
ridge_point = spec.function("roofline.ridge_point")
attainable_flops_per_sec = spec.function("roofline.attainable_flops_per_sec")
is_compute_bound = spec.function("roofline.is_compute_bound")
time_matmul = spec.function("roofline.time_matmul", timeout=120)
measure_matmul_mfu = spec.function("roofline.measure_matmul_mfu", timeout=120)
promised_flops_per_sec = spec.function("roofline.promised_flops_per_sec")


# a figure given in the datasheet's units: its prefix, and the power of ten it stands for
PREFIXES = (("k", 3), ("M", 6), ("G", 9), ("T", 12), ("P", 15))


def wrong_figure(value, expected) -> str:
    """The words for a datasheet figure that is not the reference's (``expected`` may be a digest)."""
    # (a figure written as an int, 2039 or 624 * 10**12, is a figure all the same: the schema takes it as one)
    number = type(value) in (int, float)
    sparse = number and not differs(value / 2, expected, DATASHEET_COMPARE)
    units = [(prefix, power) for prefix, power in PREFIXES
             if number and not differs(value * 10.0**power, expected, DATASHEET_COMPARE)]
    return "wrong value" + (" (twice the dense peak: the datasheet's headline figure assumes 2:4 sparsity)"
                            if sparse else f" (in {units[0][0]}B/s or {units[0][0]}FLOP/s? The tables hold plain bytes "
                            f"and FLOPs per second: {value:g}e{units[0][1]})" if units else "")


def _figure(where: str, value, expected) -> None:
    """One datasheet figure: a number within 0.1% of the reference's."""
    check(value, FLOAT, where)
    if differs(value, expected, DATASHEET_COMPARE):
        require(False, where, wrong_figure(value, expected), got=value, expected=expected,
                how=DATASHEET_COMPARE.describe())


def _table(impl, oracle, table) -> tuple[dict, dict]:
    answers = ask(impl, oracle, table)
    require(type(answers.got) is dict, table.name, f"wrong type: {show(answers.got)}; expected a dict keyed by "
            "chip name", show_values=False)
    return answers.got, answers.expected


def _keys(table) -> str:
    return ", ".join(sorted(map(show, table))) or "nothing"


def test_peak_flops_table(impl, oracle):
    got, expected = _table(impl, oracle, PEAKS)
    for chip, peaks in expected.items():
        mine = got.get(chip)
        require(type(mine) is dict, PEAKS.name,
                f"{PEAKS.name}[{chip!r}] should be a dict of dtype -> FLOP/s; it is {show(mine)}", show_values=False)
        for dtype, peak in peaks.items():
            where = f"{PEAKS.name}[{chip!r}][{dtype}]"
            require(dtype in mine, PEAKS.name, f"no entry {where} (the {chip} entry has {_keys(mine)})",
                    show_values=False)
            _figure(where, mine[dtype], peak)
    fp8 = [d for d in (torch.float8_e4m3fn, torch.float8_e5m2) if d in got["A100"]]
    require(not fp8, PEAKS.name, f"the A100 has no FP8 tensor cores, but its table lists {_keys(fp8)}",
            show_values=False)


def test_hbm_table(impl, oracle):
    got, expected = _table(impl, oracle, HBM)
    for chip, bandwidth in expected.items():
        where = f"{HBM.name}[{chip!r}]"
        require(chip in got, HBM.name, f"no entry {where} (the table has {_keys(got)})", show_values=False)
        _figure(where, got[chip], bandwidth)


@given(case=S.promised_cases())
@example(case=("NVIDIA H100 80GB HBM3", torch.bfloat16))
@example(case=("NVIDIA A100-SXM4-80GB", torch.float32))
@example(case=("NVIDIA H200", torch.float8_e4m3fn))
@example(case=("NVIDIA GeForce RTX 4090", torch.bfloat16))
@example(case=("NVIDIA GH200 480GB", torch.bfloat16))
@example(case=("NVIDIA A100-SXM4-80GB", torch.float8_e4m3fn))
@example(case=("NVIDIA RTX A1000 Laptop GPU", torch.bfloat16))  # a word that begins with "A100" is no A100
def test_promised_flops_per_sec(impl, oracle, case):
    """The value within 0.1%, or ValueError where the spec asks for one. The spec asks for a table of at
    least the A100, H100 and H200: a device it does not name may be a chip your table adds, and then your
    own figure is the answer (as the hidden test holds every lookup against your own table)."""
    name, dtype = case
    answers = ask(impl, oracle, promised, *case, returns=Tuple(STR, Optional(FLOAT)))
    extra = _extra_chip(impl, oracle, name)
    if extra is None:
        status, value = answers.check().got
        peak = f" ({value:.4g} FLOP/s)" if isinstance(value, float) else ""
        answers.where(0).same(
            f"returned a peak{peak} where ValueError is due: no word of the name (split on spaces and hyphens) is "
            f"a chip of the table, or its chip has no {dtype} peak" if status == "ok" else
            f"raised ValueError where a peak is due: a word of the name (split on spaces and hyphens) is a chip of "
            f"the table, and the table holds its {dtype} peak")
        answers.where(1).within(rel=DATASHEET.rel, problem=wrong_figure(value, answers.expected[1]))
        return
    chip, peaks = extra
    answers.check()
    status, value = answers.got
    if dtype in peaks:
        answers.require(status == "ok", f"raised ValueError, but your own {PEAKS.name}[{chip!r}] holds a {dtype} "
                        "peak: look the dtype up in the chip's table", show_values=False)
        answers.require(not differs(value, peaks[dtype], DATASHEET_COMPARE),
                        f"not the peak your own {PEAKS.name}[{chip!r}][{dtype}] holds", got=value,
                        expected=peaks[dtype], how=DATASHEET_COMPARE.describe())
    else:
        answers.require(status == "ValueError", f"returned a peak, but your own {PEAKS.name}[{chip!r}] has no "
                        f"{dtype} entry: raise ValueError for a dtype the chip's table has no peak for",
                        got=value, show_values=False)


def _extra_chip(impl, oracle, name: str) -> tuple[str, dict] | None:
    """(chip, its peaks) if ``name`` is a device the spec does not name whose chip, a model number that is
    a whole word of the name (``L40S``, ``V100``: not ``NVIDIA``, ``Tesla``, ``32GB``), is an entry of the
    implementation's own table; else None. A vendor's word as a key would make every device its chip."""
    if name not in S.UNKNOWN_NAMES:
        return None
    table = ask(impl, oracle, PEAKS).got
    if type(table) is not dict:
        return None  # the table test says what is wrong with it
    for word in re.split(r"[ -]", name):
        model = re.fullmatch(r"[A-Za-z]*\d+[A-Za-z]*", word) and not word.upper().endswith("GB")
        if model and word in table and word not in S.TABLE_DTYPES:
            return word, table[word] if type(table[word]) is dict else {}
    return None


@given(case=S.mfu_cases())
@example(case=(989.5e12, 2.0, 989.5e12))
@example(case=(8.796093022208e12, 0.0178, 989.5e12))
def test_mfu(impl, oracle, case):
    ask(impl, oracle, mfu, *case).within(rel=EXACT_MATH)


@given(case=S.intensity_cases())
@example(case=(1024, 8192, 8192))
@example(case=(1, 8192, 8192))
@example(case=(1, 8192, 8192, 2))
def test_matmul_arithmetic_intensity(impl, oracle, case):
    ask(impl, oracle, matmul_arithmetic_intensity, *case).within(rel=EXACT_MATH)


@given(case=S.roofline_cases())
@example(case=(819.2, 989.5e12, 3.35e12))
@example(case=(1.0, 989.5e12, 3.35e12))
@example(case=(295, 295 * 3_350_000_000_000, 3_350_000_000_000))
# a ridge below one FLOP per byte (a slow chip, fast memory): the ridge is a ratio, never rounded to a whole number
@example(case=(0.2, 1e12, 2.5e12))
@example(case=(0.0, 989.5e12, 3.35e12))  # no FLOPs per byte: nothing attainable (only a negative one is refused)
def test_roofline(impl, oracle, case):
    """ridge_point, attainable_flops_per_sec and is_compute_bound of one (intensity, peak, bandwidth)."""
    intensity, peak, bandwidth = case
    ask(impl, oracle, ridge_point, peak, bandwidth).within(rel=EXACT_MATH)
    ask(impl, oracle, attainable_flops_per_sec, *case).within(rel=EXACT_MATH)
    on_the_ridge = bandwidth > 0 and intensity == peak / bandwidth  # (a figure such as 988.25e12 hides it)
    ask(impl, oracle, is_compute_bound, *case).same(
        "wrong value at an intensity exactly on the ridge point, peak / bytes_per_sec" if on_the_ridge else None)


# --------------------------------------------------------------------------- timing
EXTRA_WARMUP = 20  # a second call with this many more warm-up products: its extra CPU time is what they cost
EXTRA_TRIALS = 20  # ... and a third with this many more trials
FLOAT64_COSTS_MORE = 1.25  # a float64 product costs about twice a float32 one on any CPU (half the SIMD lanes)
CEILING = {torch.float32: 5e11, torch.float64: 2.5e11}  # FLOP/s one CPU core cannot reach (AVX-512: ~2e11)
HARNESS_WINDOW = (0.2, 8.0)  # the figure / the harness's own timing of the product, on a busy shared machine
# the CPU the extra warm-up cost per product / the harness's own least CPU per product: at least this.
# CPU time stretches on a busy shared machine too (caches, memory bandwidth): an honest time_matmul
# measured 0.48 of the harness's median once, under the self-tests' load. Against the harness's least,
# 0.35 leaves room for that and still fails products three times cheaper than asked (a smaller matrix,
# a cheaper dtype), which the FLOP/s ceiling above lets through.
HARNESS_CPU_FLOOR = 0.35
ROUNDS = 3  # a check a busy machine failed is measured again, up to this many rounds in all
# In a call with EXTRA_WARMUP more warm-up, every product at the figure's time / the call's wall time: at most
# this (the least over the calls). Honest, about 1: the trials take what the warm-up products take, or more
# when the machine takes the CPU away while they run (twice as long in every call: 1.9 with w=1, t=8). A
# figure that times the warm-up too gives (w + 20 + t) / t, at least 2.75 over the drawn cases (3.3 by default).
WARMUP_TIMED = 2.5
# ... and at least this (the median over the calls), or else the figure with EXTRA_WARMUP more warm-up at
# least FIGURE_SHRINKS of the figure with the case's own (the least of each). Honest, the first about 1: as low
# as 0.57 in one call when the machine took the CPU away during the warm-up, 0.31 once for a median of
# per-trial times on a busy machine (it drops the stretched products the wall time keeps); the second about
# 1, the same product timed, yet 0.656 once, with the first at 0.475, for an honest 256^3 timing graded two
# at a time on two cores. A figure divided by more than the products it timed (`warmup + trials`) fails
# both: trials / (w + 20 + t), at most 0.36 over the drawn cases, and (w + t) / (w + 20 + t), at most 0.52.
# Each bound sits between the two.
FIGURE_TOO_SMALL = 0.42
FIGURE_SHRINKS = 0.6
# ... or the call's products at the figure's time fill at least this much of the CPU time the call ran (the least
# over the calls). A busy machine stretches wall time, never CPU time, wherever in the call it waits: an honest
# figure (at least a product's CPU time) fills it but for what the call spends outside its products (making the
# inputs, the door's request), 0.77-0.86 with 256-320 sized float32 products (about 0.2 ms each), two busy graders
# beside it, where the two above came to 0.31 and 0.45 for a correct timer once. A figure divided by warmup + trials
# fills trials / (w + 20 + t) of it, stretched only by waits inside its timed loop: 0.24-0.27 in the same hour, up
# to 0.80 in one call; the least of six calls, 0.24.
FIGURE_FILLS_CPU = 0.6
# A call watched op by op (``_products_run``): each product's time as torch ran it is an interval inside any
# clock read around the timed products (or around each), so an honest figure, a mean, a median or the least
# of per-trial times, is at least the least of the timed products' own times, whatever the load. This much of
# it leaves room for a figure rounded to two digits; a figure divided by twice the trials (or scaled down by
# any constant below it) lands under it unless its products' times differ by more than half.
FIGURE_FLOOR = 0.8


def _reads_a_clock(impl, fn: str) -> None:
    """The figure must come from a clock the call read: a number made up, however padded, does not."""
    text, name = impl.source("roofline"), fn.split(".")[1]
    try:
        Module.parse(text or "", "roofline")
    except SyntaxError as error:  # it imported (the calls ran), but this reading cannot follow it
        refuse(fn, f"roofline.py cannot be read to see which clock it reads ({error.msg}): keep it plain Python "
               "(no expression or block nested hundreds of levels deep)")
    replaced = replaced_at_import(impl.sources(), "roofline")
    if replaced:
        refuse(fn, f"{replaced[0].where} {replaced[0].what}: code that runs when roofline.py is imported may put "
               "other functions in place of yours or a library's; the clock is read from roofline.py's source, "
               "so its functions must run as written there")
    # in roofline.py and any module of yours it takes a helper from
    reads = package_names(impl.sources(), "roofline", name, is_clock) if text is not None else [0]
    refuse_unless(bool(reads), fn, f"{name} never reads a wall clock (time.perf_counter() and the like), in itself "
                  "or a helper of roofline.py: measure the products you run, do not compute or guess the figure (CPU "
                  "clocks such as time.process_time() count CPU time, not the time a product takes)")


KINDS = ("case", "warmup", "trials")
LEFT_TO_DEFAULTS = "warmup and trials left to your defaults, which must be the signature's: warmup=3, trials=10"


def _timed(impl, m, k, n, dtype, warmup, trials, w, t):
    """Six calls timed from outside, as (kind, warm-up, trials, call): the case's own ("case"), one with
    EXTRA_WARMUP more warm-up ("warmup") and one with EXTRA_TRIALS more trials ("trials"), twice each."""
    kinds = (("case", (warmup, trials), w, t), ("warmup", (w + EXTRA_WARMUP, t), w + EXTRA_WARMUP, t),
             ("trials", (w, t + EXTRA_TRIALS), w, t + EXTRA_TRIALS))
    return [(kind, w_, t_, impl.measure(time_matmul_call, m, k, n, dtype, "cpu", *sizes, observe=Observe(waits=True)))
            for _ in range(2) for kind, sizes, w_, t_ in kinds]


@dataclass
class _Timings:
    """Every call of one dtype so far, and the harness's timings of the same product.

    A busy machine stretches wall and CPU time, never shrinks them, so the least of each
    is the closest to what the product costs: the extra warm-up's cost is a difference of
    two calls, which a stretch of the shorter call alone once shrank below a third of an
    honest product's cost (both cores busy), and a figure, wall clock, once came out at
    10x the harness's median under the self-tests' load."""

    inputs: str
    products: int  # in a call with the extra warm-up: w + EXTRA_WARMUP + t
    defaults: bool = False  # the case's own calls left warmup and trials to the function's defaults
    # by kind of call (``_timed``: "case", "warmup", "trials"): the CPU seconds of each, and what each returned
    cpu: dict = field(default_factory=lambda: {kind: [] for kind in KINDS})
    returned: dict = field(default_factory=lambda: {kind: [] for kind in KINDS})
    # of each call with EXTRA_WARMUP more warm-up: its figure times its products, over its wall time
    spread: list = field(default_factory=list)
    filled: list = field(default_factory=list)  # ... over its CPU time
    harness: list = field(default_factory=list)  # MatmulCost, when grading
    waited: list = field(default_factory=list)  # of each call: the share of its wall time it waited by its own doing

    @property
    def figures(self) -> list:
        """What every call returned."""
        return [figure for figures in self.returned.values() for figure in figures]

    @property
    def extra(self) -> float:
        """The least CPU one extra warm-up product cost."""
        return (min(self.cpu["warmup"]) - min(self.cpu["case"])) / EXTRA_WARMUP

    @property
    def extra_trial(self) -> float:
        """The least CPU one extra trial cost."""
        return (min(self.cpu["trials"]) - min(self.cpu["case"])) / EXTRA_TRIALS

    @property
    def per_product(self) -> float:
        return min(self.cpu["warmup"]) / self.products


def _busy_checks(m, k, n, timings: dict) -> list:
    """(holds, problem, details) of each check a busy machine can fail: measured again before it counts."""
    checks = []
    for dtype, seen in timings.items():
        quiet = {"inputs": seen.inputs, "show_values": False}
        floor = 2 * m * k * n / CEILING[dtype]
        # measured against a call with warmup and trials left to the defaults: other defaults show here
        defaults = f" (the first call: {LEFT_TO_DEFAULTS})" if seen.defaults else ""
        checks.append((seen.extra >= floor,
                       f"with {EXTRA_WARMUP} more warm-up products the call cost {seen.extra * EXTRA_WARMUP:.3g} s "
                       f"more CPU, less than {EXTRA_WARMUP} such products take on any CPU core "
                       f"({floor * EXTRA_WARMUP:.3g} s): run `warmup` untimed products first, then time `trials` "
                       f"more{defaults}", quiet))
        checks.append((seen.extra_trial >= floor,
                       f"with {EXTRA_TRIALS} more trials the call cost {seen.extra_trial * EXTRA_TRIALS:.3g} s more "
                       f"CPU, less than {EXTRA_TRIALS} such products take on any CPU core "
                       f"({floor * EXTRA_TRIALS:.3g} s): time as many products as `trials` asks for, and divide by "
                       f"it{defaults}", quiet))
        spread = min(seen.spread)
        typical = statistics.median(seen.spread)
        least = min(seen.returned["case"])  # a figure of 0 s is less than one product's time too
        shrunk = min(seen.returned["warmup"]) / least if least > 0 else 0.0
        checks.append((typical >= FIGURE_TOO_SMALL or shrunk >= FIGURE_SHRINKS or min(seen.filled) >= FIGURE_FILLS_CPU,
                       f"with {EXTRA_WARMUP} more warm-up products your figure shrank to {shrunk:.3g} of what it was, "
                       f"and all {seen.products} products of the call at your figure's time would take only "
                       f"{typical:.3g} of the whole call's wall time: the figure is less than one product's time. "
                       "Divide the timed loop's seconds by the products it ran, `trials`", quiet))
        checks.append((spread <= WARMUP_TIMED,
                       f"with {EXTRA_WARMUP} more warm-up products, all {seen.products} products of the call at your "
                       f"figure's time would take {spread:.3g}x the whole call's wall time: the warm-up was timed too. "
                       "Read the clock after the warm-up, time the `trials` products alone and divide by `trials`",
                       quiet))
        if seen.harness:
            cpu = min(cost.cpu_seconds for cost in seen.harness)
            checks.append((seen.extra >= HARNESS_CPU_FLOOR * cpu,
                           f"each of the {EXTRA_WARMUP} extra warm-up products cost {seen.extra:.3g} s of CPU, less "
                           f"than a third of what the harness's own product of this size costs ({cpu:.3g} s): run "
                           "real [m, k] @ [k, n] products of the dtype asked for", quiet))
            checks.append((seen.extra_trial >= HARNESS_CPU_FLOOR * cpu,
                           f"each of the {EXTRA_TRIALS} extra trials cost {seen.extra_trial:.3g} s of CPU, less than a "
                           f"third of what the harness's own product of this size costs ({cpu:.3g} s): time as many "
                           "products as `trials` asks for", quiet))
            harness, figure = min(cost.wall_seconds for cost in seen.harness), min(seen.figures)
            low, high = HARNESS_WINDOW
            checks.append((low <= figure / harness <= high,
                           f"{figure / harness:.3g}x the harness's own timing of this product ({harness:.3g} s), the "
                           f"least of your {len(seen.figures)} figures: time the products you ran, one product after "
                           "the warm-up", {"inputs": seen.inputs, "got": figure, "expected": harness}))
    cost32, cost64 = timings[torch.float32].per_product, timings[torch.float64].per_product
    checks.append((cost64 >= FLOAT64_COSTS_MORE * cost32,
                   f"a float64 call cost {cost64:.3g} s of CPU per product, hardly more than a float32 one "
                   f"({cost32:.3g} s), when a float64 product costs about twice as much: make a and b in the dtype "
                   "asked for", {"inputs": timings[torch.float64].inputs, "show_values": False}))
    return checks


# the explicit example's held-up sizes and order: public, so never the ones held up (a timer could know them)
PUBLIC_HELD = (864, 864, 864, 1)
# the implementations whose held-up pair was timed (and passed) in this run: one pair a test is enough, and
# each pair holds the worker stopped for about a second of wall time
_HELD_UP: weakref.WeakSet = weakref.WeakSet()


@pytest.mark.timed
@settings(max_examples=3)  # each example is at least six timed calls per dtype: a few show every bug
@given(case=S.cpu_timing_cases(), held=S.held_up_cases, counted=S.counted_cases)
@example(case=(256, 256, 256, None, None), held=PUBLIC_HELD, counted=(768, 704, 8, None, None))
def test_time_matmul_cpu(impl, oracle, case, held, counted):
    """Not a speed test: the figure must be what the call itself measured.

    The door times each call from outside, wall clock and CPU. ``time_matmul`` is
    called three times, the second time with 20 more warm-up products, the third with 20
    more trials, each call made twice:
    * the figure times trials is at most the call's wall time (one product, in
      seconds, not the total, not milliseconds);
    * the second and third calls must cost more CPU, at least what 20 products of this
      size cost on the fastest CPU core (the warm-up products ran, and `trials` products);
    * a float64 product must cost more CPU than a float32 one (the dtype asked for);
    * all of a call's products at the figure's time fit in about the call's wall time (the warm-up
      is not timed), and fill most of it, or of the CPU time the call ran (the figure is not divided by
      more than `trials`);
    * the least float32 figure is at least 3/4 of the fastest product the case's own call ran when watched
      op by op (below): the figures timed from outside are of the products asked for, watched or not;
    * ``time_matmul`` reads a clock (its source is read, never run, to say so);
    * its calls wait for nothing of their own (a sleep, a thread's work waited for): the kernel counts the
      answering thread's time on a CPU and waiting for one, and the rest of its wall time is the call's own
      waiting, which a busy machine does not make (the median over the calls);
    * a product of about 1 GFLOP (``held``: its sizes) timed twice, once (first or second, as drawn) with
      the process held stopped from outside for most of the call, takes the stops in that time (and
      each figure, times trials, fits in its call's wall time): once a test, in its first drawn example
      (a property of the timer, not of the sizes; the explicit example's are public);
    * a thin product (``counted``), watched op by op from inside the call: warmup + trials
      products ran (3 + 10 with the defaults), each an [m, k] @ [k, n] of drawn values (not zeros) whose
      result is the product (an op with a product's shapes that multiplies nothing is none), and where
      it draws random numbers between products, the figure is about what a product took (drawing
      inputs inside the timed loop costs several of these); the case's own float32 call, watched so too,
      the same, and its figure about what a product took whether it draws or not. The watch makes each
      warm-up product 30 ms slower and the first timed one 50 ms: the figure must be at least the timed
      products' mean (not the last one's time alone, nor their median) and, after a warm-up, about it (the
      warm-up untimed).
    When grading, the figure and the extra products' CPU are also held against the
    harness's own timing of the same product, made in a process where no
    submission ever ran. Each of these but the first and the last compares the least
    of what was measured (whether the products fill the call: the median), and a
    check a busy machine failed is measured again, in up to ROUNDS rounds in all,
    before it counts. A figure every call returns to its last digit was not measured.
    """
    m, k, n, warmup, trials = case
    fn = "roofline.time_matmul"
    w, t = DEFAULT_COUNTS if warmup is None else (warmup, trials)
    timings = {dtype: _Timings(named_inputs(fn, (m, k, n, dtype, "cpu") + (() if warmup is None else (w, t))),
                               w + EXTRA_WARMUP + t, warmup is None)
               for dtype in (torch.float32, torch.float64)}
    for dtype in timings:
        impl.measure(time_matmul_call, 16, 16, 16, dtype, "cpu", 1, 1)  # first-use costs, outside what is measured
    for _ in range(ROUNDS):
        for dtype, seen in timings.items():
            for kind, w_, t_, call in _timed(impl, m, k, n, dtype, warmup, trials, w, t):
                seconds = check(call.value, FLOAT, fn, seen.inputs)
                _fits_in_call(fn, seconds, call, (m, k, n, dtype, "cpu", w_, t_),
                              "more than one product takes" if kind != "trials" else
                              f"with {EXTRA_TRIALS} more trials asked for, more than one product takes, or fewer "
                              "than `trials` products ran", defaults=kind == "case" and warmup is None)
                seen.cpu[kind].append(call.cpu_seconds)
                seen.returned[kind].append(seconds)
                if call.waited is not None:
                    seen.waited.append(_waited_inside(call, seconds * t_))
                if kind == "warmup":
                    seen.spread.append(seconds * (w_ + t_) / max(call.wall_seconds, 1e-9))
                    seen.filled.append(seconds * (w_ + t_) / max(call.cpu_seconds, 1e-9))
            if oracle.available(matmul_cost):
                seen.harness.append(oracle.run(matmul_cost, m, k, n, dtype, "cpu"))
        checks = _busy_checks(m, k, n, timings)
        if all(holds for holds, _, _ in checks):
            break
    _reads_a_clock(impl, fn)
    _products_run(impl, fn, counted)
    _figures_of_watched_products(impl, fn, case, timings[torch.float32])
    if held != PUBLIC_HELD and impl not in _HELD_UP:  # once a test, on sizes and an order the seed drew
        _held_up(impl, fn, held)
        _HELD_UP.add(impl)
    for seen in timings.values():
        _measured_anew(fn, seen)
        _waits_for_nothing(fn, seen)
    for holds, problem, details in checks:
        require(holds, fn, problem, **details)


# The least float32 figure of the calls the door timed / the fastest product the case's own watched call ran,
# inside torch: at least this. Both are the least of many (a busy machine stretches, never shrinks): an honest
# time_matmul came to 0.97-1.07 (once 1.48), two busy processes beside it; one that spots the watch (its
# dispatch mode makes every op tens of microseconds slower) and times [m, k/2] @ [k/2, n] when it is off,
# to 0.48-0.58. A figure under the bound is measured against the watched products again (the fastest kept)
# before it counts, at once and then after a pause, each pause longer: a busy machine's slow spell outlasts
# several runs in a row. An honest call came to 0.72 once, at home, beside four busy processes, where one more
# watched run was as slow as the first; graded beside another grading and three bursts of torch work, one
# came to 0.81 and stayed at 0.84 for four more watched runs in a row, then 1.00 (the spell over). Only the
# watched side is run again: its fastest product can only fall to what the product costs, so a call that
# times [m, k/2] @ [k/2, n] when unwatched stays about 0.52 of it however often it runs (the same graded
# runs: 0.50-0.53 after 4 watched runs or 8, but once, 0.84, where all six of its figures were stretched).
# Graded beside the other piece of a whole submission (its Parts 8 and 9 torch work), an honest per-trial timer
# came to 0.73 after the six runs below that ended at 1 s: such a spell lasts seconds, and the last two pauses
# (never waited for where the figure holds at once, as an honest one does all but rarely) outlast it
WATCHED_SHARE = 0.75
NEAR_THE_BOUND = 0.65  # where a failure may yet be a busy machine's (the honest 0.72, 0.73 above): said so
WATCHED_PAUSES = (0.0, 0.0, 0.0, 0.1, 0.3, 0.6, 1.0, 2.0)  # seconds before each run again


def _figures_of_watched_products(impl, fn: str, case: tuple, seen: _Timings) -> None:
    """The figures the door timed are of the products the watch saw: a call that runs other products when its
    ops are not watched (smaller ones, fewer) returns less than the watched products take."""
    figure = min(seen.figures)
    fastest = _products_run(impl, fn, case, bounded=True)  # the products the figures above are of, as asked
    for pause in WATCHED_PAUSES:
        if figure >= WATCHED_SHARE * fastest:
            break
        time.sleep(pause)
        fastest = min(fastest, _products_run(impl, fn, case, bounded=True))
    require(figure >= WATCHED_SHARE * fastest, fn, f"returned {figure:.3g} s for one product (the least of its "
            f"{len(seen.figures)} float32 figures), {figure / fastest:.2g} of the fastest product the same call ran "
            f"when its ops were watched ({fastest:.3g} s inside torch): the products it times are not the [m, k] @ "
            "[k, n] it runs when watched (smaller? fewer than `trials`?). Time `trials` products of the inputs asked "
            "for, the same code every call, and divide by `trials`" + (
                "; a figure this near the bound can also be a busy machine's: where the test passes run again with "
                "nothing else running, it was" if figure >= NEAR_THE_BOUND * fastest else ""),
            inputs=seen.inputs, show_values=False)


def _fits_in_call(fn: str, seconds: float, call, args: tuple, problem: str = "more than one product takes", *,
                  defaults: bool = False) -> None:
    """A figure of one product, times the call's ``trials`` (``args``' last), fits in the wall time the door
    measured around the whole call (5% and 0.1 ms of slack). ``defaults``: the call left warmup and trials
    (``args``' last two, then the signature's) to the function's defaults."""
    warmup, trials = args[-2:]
    inputs = named_inputs(fn, args) if not defaults else named_inputs(fn, args[:-2]) + f" ({LEFT_TO_DEFAULTS})"
    require(seconds * trials <= 1.05 * call.wall_seconds + 1e-4, fn,
            f"{problem}: {trials} trials of it ({seconds * trials:.3g} s) do not fit in the {call.wall_seconds:.3g} s "
            "the whole call took. Return the wall-clock seconds of ONE product (not the total of the trials, not "
            "milliseconds), timing `trials` of them",
            inputs=inputs, got=seconds, expected=call.wall_seconds / (warmup + trials))


# a product of about 1 GFLOP (5 ms or more on any CPU core: longer than the worker's running spells), timed
# twice with one warm-up and three trials, one of the two (drawn) with the worker held stopped for three
# quarters of the call
HELD_UP = 1.5  # the least a measured figure grows by, held up so (single-threaded about 4x)
# ... or else the share of the stops its products' time must take in: figure * (warmup + trials) against the
# seconds held stopped. Several threads under the worker's one-CPU quota are throttled in the plain calls as
# much as held up in the held one (1.0x), yet their figure takes the stops in (0.2 s of 0.24 s held: 1.3);
# a figure from the sizes takes in about 0.1 of them, and a guess that fits both bounds of a plain call
# (at most its wall time over `trials`) would have to know how fast the product runs
HELD_SHARE = 0.6


def _held_up(impl, fn: str, held: tuple) -> None:
    """Where the door can hold the process stopped from outside (a sandboxed worker), a figure a clock
    measured takes the stops in, whatever statistic of the trials it takes; a figure worked out from the
    sizes (however it is jittered) does not move. The two calls ask the same (drawn) sizes, the held one
    first or second as drawn, so that nothing but the clock tells it apart. A round a busy machine spoiled
    is measured again, in up to ROUNDS rounds."""
    if not impl.can_hold_up():
        return  # no door here holds a process up (in process, the student's own run): nothing to compare
    *sizes, place = held
    warmup, trials = 1, 3
    args = (*sizes, torch.float32, "cpu", warmup, trials)
    for _ in range(ROUNDS):
        calls = []
        for i in range(2):
            calls.append(impl.measure(time_matmul_call, *args, observe=Observe(stall=i == place)))
            if i == place and calls[i].stalled is None:
                return  # this worker could not be held (not ours to stop): the call says nothing of stalls
        stalled = calls[place].stalled
        plain, figure = (check(call.value, FLOAT, fn) for call in (calls[1 - place], calls[place]))
        for call, seconds in ((calls[1 - place], plain), (calls[place], figure)):
            # as in every timed call: a figure that takes the stops in must not be a large guess for both
            _fits_in_call(fn, seconds, call, args)
        # a call over before its first stop (stalled 0: four products of about 1 GFLOP take far longer) shows
        # nothing of its clock: measured again, and charged if it never lasts
        if stalled > 0 and (figure >= HELD_UP * plain or figure * (warmup + trials) >= HELD_SHARE * stalled):
            return
    require(stalled > 0, fn, f"returned {figure:.3g} s from a call that took {calls[place].wall_seconds:.3g} s, over "
            f"before it could be held stopped once: {warmup} + {trials} products of about 1 GFLOP take longer. Run "
            "the `warmup` and `trials` products asked for and time them", inputs=named_inputs(fn, args),
            show_values=False)
    require(False, fn, f"returned {figure:.3g} s with the process held stopped from outside for {stalled:.3g} s of "
            f"the call's {calls[place].wall_seconds:.3g} s, and {plain:.3g} s without: a figure read from a clock "
            f"around the products takes the stops in (here at least {HELD_SHARE * stalled / (warmup + trials):.3g} s "
            f"a product, or {HELD_UP:g}x the figure without). Return what the clock measured around the `trials` "
            "products", inputs=named_inputs(fn, args), show_values=False)


# Where the call draws random numbers between its products (inputs made afresh, for each trial or inside the
# timed loop), a figure at most PRODUCTS_ONLY times what a product cycle costs inside torch (the mean of the
# timed products, and the call's other ops but its draws, a share a product: an einsum's permutes and copies
# are its product's cost), plus WATCH_SHARE times what the watch adds to the ops of a cycle and what it spent
# checking each timed product (``_multiplied``), plus PRODUCTS_SLACK seconds (the loop's own cost). Honest,
# fresh inputs outside the timed product: 0.5 to 0.72 of the bound; inputs drawn inside the timed loop: 3 to
# 10 times the product (n is small: drawing [m, k] costs several thin products), 1.8 to 5 of the bound (60
# rounds each, here). A round a preemption spoiled is measured again, after each of PRODUCT_PAUSES: a busy
# machine's slow spell outlasts several runs in a row (graded beside three other gradings on 2 cores, the
# reference's own timer came to 3.2 times the watched products in all of three rounds back to back, once in
# about 50 gradings; the last two pauses are waited for only there, or by a figure that times more than the
# products in every round). After a pause one round runs unjudged and the next is judged: a timer that draws
# inside its loop only when called in quick succession (the rounds before) would pass a rested round. Without
# draws between products the figure cannot time them: nothing is checked here
PRODUCTS_ONLY = 1.5
# ... where a trial's other ops count for at most OTHER_SHARE of a product and OPS_PER_TRIAL ops: an einsum's
# permutes, views and bmm are about eleven a trial and a few percent of a product, a product alone one. An
# honest einsum, fresh inputs or per-trial clones off the clock came to 0.44-0.77 of the bound (and passed
# with two busy processes beside them); inputs drawn on the clock, with 3,000 views or a large copy off it
# between trials (the allowance that bought before the caps), to 1.03-1.16 in the thin product's run
OTHER_SHARE = 0.1
OPS_PER_TRIAL = 12
WATCH_SHARE = 3.0
PRODUCTS_SLACK = 1e-4
PRODUCT_PAUSES = (0.0, 0.0, 0.0, 0.5, 1.5)  # seconds before each round


def _products_run(impl, fn: str, counted: tuple, *, bounded: bool = False) -> float:
    """``time_matmul`` watched from inside, op by op: the products it asked torch for, their shapes and
    what each took, and what its other ops took; returns the fastest timed product it saw. Not measurements
    the score trusts against a forger on their own (running the right products is all they ask; that the
    figures timed from outside are of such products is ``_figures_of_watched_products``'), but what an honest
    slip shows in: one warm-up or trial too few or too many, b made [k, m], the inputs drawn inside the timed
    loop, or in some calls only (two calls in a row open the run). Products run in a thread the call started
    are not seen (a dispatch mode is the thread's own): they count as not run, and the message says why. A
    figure a busy moment spoiled is measured again. Unless ``bounded``, the warm-up products are made slow and
    the first timed one a little (``time_matmul_products``): a figure that times the warm-up, or keeps the last
    trial's time alone, is then far from the timed products' mean, where a free CPU hides it.
    ``bounded``: the figure is held against what a product cycle took whether or not the call draws between
    products (a main case's products are large enough for that: nothing else of a cycle, a sleep or smaller
    products timed in their place, can hide in the noise)."""
    m, k, n, warmup, trials = counted
    inputs = named_inputs(fn, (m, k, n, torch.float32, "cpu") + (() if warmup is None else (warmup, trials)))
    asked = f"warmup={warmup} and trials={trials}" if warmup is not None else LEFT_TO_DEFAULTS
    probe_counts = (warmup, trials)
    if warmup is None:
        warmup, trials = DEFAULT_COUNTS
    least = None
    draws: list[int] = []  # the rounds' counts of draws between products, each once: an honest timer's never change
    if not bounded:
        # two calls in a row before the first judged round ends the test (this twin, unslowed, is cheap): a timer
        # that draws inside its loop on every other call (a counter kept in the module) is seen drawing in one
        # of them and not in the other, whichever call of the run this is
        twin = impl.run(time_matmul_products, m, k, n, *probe_counts, False)
        draws.append(twin.draws_between)
    for pause in PRODUCT_PAUSES:
        if pause:  # the round right after a pause is not judged (a timer honest only when rested would pass it)
            time.sleep(pause)
            rested = impl.run(time_matmul_products, m, k, n, *probe_counts, not bounded)
            draws += [rested.draws_between] if rested.draws_between not in draws else []
        # None, None: the defaults; the thin product's run only is slowed (its products are the cheaper)
        seen = impl.run(time_matmul_products, m, k, n, *probe_counts, not bounded)
        draws += [seen.draws_between] if seen.draws_between not in draws else []
        require(len(draws) == 1, fn, f"drew random numbers between its products {draws[0]} times in one call and "
                f"{draws[-1]} times in another, asked the same: it draws inside its timed loop in some calls. Make the "
                "inputs once, before the warm-up, in every call, and time only the `trials` products",
                inputs=inputs, show_values=False)
        figure = check(seen.figure, FLOAT, fn, inputs)
        require(not seen.shapes, fn, f"ran a product of {' @ '.join(str(list(s)) for s in seen.shapes)}: time "
                f"[m, k] @ [k, n] = {[m, k]} @ {[k, n]}, a of shape (m, k) and b of shape (k, n)", inputs=inputs,
                show_values=False)
        require(not seen.unmultiplied, fn, f"ran {seen.unmultiplied} op{'s' if seen.unmultiplied != 1 else ''} "
                "on a and b with a product's shapes whose result was not a @ b (addmm with an alpha other than 1? "
                "at 0 it multiplies nothing; a sampled or sparse product?): time `trials` real products, a @ b, of "
                "the inputs asked for", inputs=inputs, show_values=False)
        timed = seen.products
        # exactly: a product more is a trial more (timed, its figure is (trials + 1) / trials of a product's
        # time, 10% high by default, which no timing check tells from a busy machine) or a warm-up the call
        # did not ask for
        require(len(timed) == warmup + trials or not seen.threads, fn, f"started a thread and ran {len(timed)} of "
                f"the {warmup} + {trials} products due ({asked}) in the calling thread: a thread it starts is not "
                "watched, so its products count as not run. Run them in the calling thread", inputs=inputs,
                show_values=False)
        require(len(timed) == warmup + trials, fn, f"ran {len(timed)} product{'s' if len(timed) != 1 else ''} "
                f"of [m, k] @ [k, n] with {asked}, where {warmup} + {trials} are due: run `warmup` untimed "
                "products, then time `trials` more, and no others (range(warmup) and range(trials), not from 1 "
                "or to n + 1; a timer that warms up on its own, torch.utils.benchmark.Timer.timeit, runs more)",
                inputs=inputs, show_values=False)
        require(not seen.other_operands, fn, f"ran {seen.other_operands} of its products on an operand that is no "
                "dense float32 tensor (sparse? another dtype?): make a and b with torch.randn in the dtype asked "
                "for", inputs=inputs, show_values=False)
        require(seen.torch_threads <= 1, fn, f"ran its products with torch set to use {seen.torch_threads} threads: "
                "leave torch's thread count as it is (one thread here, as the harness times its own products)",
                inputs=inputs, show_values=False)
        require(not seen.constant, fn, "multiplied a matrix that holds one value throughout (zeros? ones?): "
                "make random inputs, torch.randn(m, k) and torch.randn(k, n) in the dtype and on the device asked "
                "for (some hardware multiplies zeros faster than real data)", inputs=inputs, show_values=False)
        fastest = min(timed[-trials:])
        least = fastest if least is None else min(least, fastest)
        require(figure >= FIGURE_FLOOR * fastest, fn, f"returned {figure:.3g} s for one product, less than the "
                f"fastest of the {trials} timed products took inside torch ({fastest:.3g} s): a clock read around "
                "the timed products gives at least that. Divide the timed loop's seconds by `trials`, no more",
                inputs=inputs, show_values=False)
        product = sum(timed[-trials:]) / trials
        # ... and what the watch spent checking each of them, inside the op, which a clock around the timed loop
        # takes in as a product's time: left out, a figure that drops the slow first trial (a median of per-trial
        # times, a trimmed mean) came within the floor of the bare mean wherever the checks took a millisecond
        mean = product + seen.checked_seconds / trials
        require(not seen.delayed or figure >= FIGURE_FLOOR * mean, fn, f"returned {figure:.3g} s for one "
                f"product, less than the mean of the {trials} timed products as they ran inside torch and were "
                f"checked ({mean:.3g} s; here the first of them was made {FIRST_TRIAL_DELAY * 1e3:g} ms slower): a clock "
                "read around the timed loop, divided by `trials`, gives at least that. Time all `trials` products "
                "and divide their total by `trials` (the average the docstring asks for; not the last product's "
                "time alone, nor a median or the least of per-trial times: they leave the slow one out), with a "
                "wall clock (time.perf_counter: a CPU-time clock misses the wait)", inputs=inputs, show_values=False)
        # the warm-up products made slow (WARMUP_DELAY each) show in a figure that times them too
        if not seen.draws_between and not bounded and not (seen.delayed and warmup):
            return least
        # what ran among the timed products, a trial's share, capped: ops outside the timed loop (or between
        # trials, off the clock) buy no allowance for drawing inside it. The first timed product's sleep (a
        # trial's share of FIRST_TRIAL_DELAY) is in the figure once: counted in a product's cost, it would buy
        # PRODUCTS_ONLY times itself
        slept = FIRST_TRIAL_DELAY / trials if seen.delayed else 0.0
        alone = product - slept
        cycle = alone + min(seen.other_seconds / trials, OTHER_SHARE * alone)
        ops = min(seen.ops / trials, OPS_PER_TRIAL)
        # what the watch spent checking the timed products (inside their ops' handler) is in the figure too
        watch = WATCH_SHARE * ops * seen.op_seconds + seen.checked_seconds / trials
        if figure <= PRODUCTS_ONLY * cycle + slept + watch + PRODUCTS_SLACK:
            return least
    took = f"while a product took {product:.3g} s inside torch " \
        f"({'the last one' if trials == 1 else f'the mean of the last {trials}'})"
    require(not seen.draws_between, fn, f"returned {figure:.3g} s for one product, {took}, and it drew random "
            f"numbers between its products ({seen.draws_between} draws, {seen.drawn_seconds:.3g} s): the figure "
            "times the drawing too. Make the inputs once, before the warm-up, and time only the `trials` products",
            inputs=inputs, show_values=False)
    slowed = f" (here each warm-up product was made {WARMUP_DELAY * 1e3:g} ms slower: they show in a figure that " \
        "times them)" if seen.delayed and warmup else ""
    require(False, fn, f"returned {figure:.3g} s for one product, {took}: the figure times more than the "
            f"products (the warm-up too? a wait, other work in the timed loop){slowed}. Start the clock after the "
            "warm-up, time only the `trials` products, and divide by `trials`", inputs=inputs, show_values=False)


# The median over a test's timed calls of the share of the time a call says it timed (its figure times
# `trials`) that its thread spent off the CPU by its own doing (a sleep, a wait on a thread: not the machine's
# preemption, which the kernel counts apart), beyond what the rest of the call's wall time could hold (a sleep
# before the timed loop is no part of the figure): at most this. Honest calls, in process and graded, beside
# three spinning processes or not: their waits at most 0.0 of their wall time (a wait for the CPU that began
# before the call counts whole, so a little under 0 at times), and graded, what the grading process takes to
# read the answer, a few milliseconds. A call that sleeps twice each product's time where it sees no watch:
# 0.2-0.4 of the wall time, and about half the timed span wherever 2 * trials is above warmup
WAITED_SHARE = 0.1


def _waited_inside(call, timed: float) -> float:
    """The share of ``timed`` seconds (a call's figure times its trials) the call must have waited inside it:
    its own waits less all of its wall time outside that span."""
    return max(0.0, call.waited - max(0.0, call.wall_seconds - timed)) / max(timed, 1e-9)


def _waits_for_nothing(fn: str, seen: _Timings) -> None:
    """A wall clock read around sleeps measures them: a call that waits in its timed loop (sleeps, or hands the
    products to a thread and waits for it) times more than its products, however its figure compares with them
    when watched. The kernel tells a wait the call chose from a busy machine's; where it does not say, nothing
    is checked."""
    if len(seen.waited) < 3:
        return
    share = statistics.median(seen.waited)
    require(share <= WAITED_SHARE, fn, f"waited off the CPU by its own doing for {share:.0%} of the time its "
            f"figure says it timed (the median of {len(seen.waited)} calls; the kernel tells such waits from a "
            "busy machine's): a sleep, or a wait on a thread or a lock, inside the timed code. Time the `trials` "
            "products alone, in the calling thread", inputs=seen.inputs, show_values=False)


def _measured_anew(fn: str, seen: _Timings) -> None:
    """A clock read twice never gives the same difference to the nanosecond, call after call: a figure
    that comes back the same to its last digit from every call (a warm-up or trial count changed, the
    machine busy or not) was not measured. (A figure rounded to a few digits may repeat: not charged.)"""
    figure = seen.figures[0]
    require(len(set(seen.figures)) > 1 or float(f"{figure:.4g}") == figure, fn,
            f"all {len(seen.figures)} calls returned {figure!r}, to the last digit, with other warm-up and trial "
            "counts, the machine busy or not: a measured time differs from call to call. Return what the "
            "clock measured, not a figure worked out from the sizes", inputs=seen.inputs, show_values=False)


# GPU: the large products the lecture times, and one fp32 (plain, non-tensor-core) product.
CUDA_SIZES = ((8192, 8192, 8192, torch.bfloat16), (4096, 8192, 2048, torch.bfloat16),
              (4096, 4096, 4096, torch.float32))
TIME_WINDOW = (0.6, 2.5)  # the student's seconds / the harness's; slack for a plain wall-clock loop
CUDA_WARMUP = 30  # warm-up products before one timed one: left running, they make the figure about 31x
MFU_FLOOR = 0.6  # of the harness's own MFU for the same product
# the MFU against the one its own time_matmul implies (two timings of the same large product): a factor
# of 2 (MACs for FLOPs) is outside, run-to-run noise inside
OWN_TIME_WINDOW = (0.75, 1 / 0.75)


def _harness(oracle, m, k, n, dtype):
    if not oracle.available(matmul_cost):
        pytest.skip("compared with the harness's own measurement when your submission is graded on a GPU")
    return oracle.run(matmul_cost, m, k, n, dtype, "cuda")


@pytest.mark.cuda
@pytest.mark.timed
def test_time_matmul_cuda(impl, oracle):
    fn = "roofline.time_matmul"
    low, high = TIME_WINDOW
    measured = {}  # the harness's seconds of each product, measured once
    for m, k, n, dtype in CUDA_SIZES:
        harness = measured[m, k, n, dtype] = _harness(oracle, m, k, n, dtype).wall_seconds
        inputs = named_inputs(fn, (m, k, n, dtype, "cuda"))
        # timed from outside, as the CPU test's calls: a figure worked out from the sizes, with no product
        # run, does not fit in the call's own wall time
        call = impl.measure(time_matmul_call, m, k, n, dtype, "cuda", None, None)
        seconds = check(call.value, FLOAT, fn, inputs)
        _fits_in_call(fn, seconds, call, (m, k, n, dtype, "cuda", *DEFAULT_COUNTS), defaults=True)
        ratio = seconds / harness
        require(ratio >= low, fn,
                f"{ratio:.3g}x the harness's own measurement (at least {low}x): too fast to be true. The "
                "clock was read before the kernels finished: torch.cuda.synchronize() before reading it",
                inputs=inputs, got=seconds, expected=harness)
        require(ratio <= high, fn,
                f"{ratio:.3g}x the harness's own measurement (at most {high}x): return the seconds of ONE "
                "product (not the total, not milliseconds), timed after the warm-up",
                inputs=inputs, got=seconds, expected=harness)
    # many warm-up products and one timed: kernels run queued, so a clock started before the warm-up's have
    # finished times them too (CUDA_WARMUP + 1 products' worth, far above the window)
    m, k, n, dtype = CUDA_SIZES[-1]
    harness = measured[m, k, n, dtype]
    args = (m, k, n, dtype, "cuda", CUDA_WARMUP, 1)
    call = impl.measure(time_matmul_call, *args)
    seconds = check(call.value, FLOAT, fn, named_inputs(fn, args))
    _fits_in_call(fn, seconds, call, args)
    require(seconds / harness <= high, fn,
            f"{seconds / harness:.3g}x the harness's own measurement of one product (at most {high}x) with "
            f"{CUDA_WARMUP} warm-up products and one trial: the warm-up's kernels were still running when the clock "
            "started. Call torch.cuda.synchronize() after the warm-up, before reading the clock",
            inputs=named_inputs(fn, args), got=seconds, expected=harness)
    _reads_a_clock(impl, fn)


def _known_gpu(name: str) -> bool:
    words = set(re.split(r"[^A-Za-z0-9]+", name.upper()))
    return bool(words & set(S.CHIPS))


@pytest.mark.cuda
@pytest.mark.timed
def test_measure_matmul_mfu_cuda(impl, oracle):
    fn = "roofline.measure_matmul_mfu"
    for m, k, n, dtype in CUDA_SIZES:
        harness = _harness(oracle, m, k, n, dtype)
        if not _known_gpu(harness.device_name):
            pytest.skip(f"no datasheet peak for {harness.device_name} (needs an A100, H100 or H200)")
        answers = ask(impl, None, measure_matmul_mfu, m, k, n, dtype, "cuda")
        value = answers.check().got
        peak = ask(impl, None, promised_flops_per_sec, harness.device_name, dtype).check().got
        # the harness's time against the student's own peak: a wrong table is test_peak_flops_table's business
        harness_mfu = 2 * m * k * n / harness.wall_seconds / peak
        require(value <= 1.0, fn,
                f"MFU {value:.3g} is above 1.0, which no GPU reaches: the clock was read before the "
                "kernels finished (torch.cuda.synchronize() before reading it)",
                inputs=answers.inputs, got=value, expected=harness_mfu)
        require(value >= MFU_FLOOR * harness_mfu, fn,
                f"MFU {value:.3g} is below the floor {MFU_FLOOR * harness_mfu:.3g} ({MFU_FLOOR} x the "
                f"harness's own {harness_mfu:.3g} against the same peak): count 2*m*k*n FLOPs and time "
                "one product after the warm-up",
                inputs=answers.inputs, got=value, expected=harness_mfu)
        require(value <= harness_mfu / MFU_FLOOR, fn,
                f"MFU {value:.3g} is far above the harness's own {harness_mfu:.3g} (at most "
                f"{harness_mfu / MFU_FLOOR:.3g}): too fast to be true",
                inputs=answers.inputs, got=value, expected=harness_mfu)
        own = ask(impl, None, time_matmul, m, k, n, dtype, "cuda").check().got
        implied = 2 * m * k * n / own / peak if own > 0 and peak > 0 else float("nan")
        low, high = OWN_TIME_WINDOW
        require(low * implied <= value <= high * implied, fn,
                f"MFU {value:.3g} does not follow from your own time_matmul ({own:.3g} s for this product) and "
                f"peak: mfu(2*m*k*n, time_matmul(...), promised) is {implied:.3g} (a product of [m, k] and "
                "[k, n] is 2*m*k*n FLOPs: a multiply and an add for each of the m*k*n terms)",
                inputs=answers.inputs, got=value, expected=implied)
    _reads_a_clock(impl, fn)  # measured, through time_matmul or its own clock: a constant MFU is not

