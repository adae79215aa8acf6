"""Staff check: the Part 5 reference against the datasheets, torch, and the harness's own GPU timing.

The tables are checked against the figures the spec states. Arithmetic
intensity is recomputed from real tensors (FLOPs from ``FlopCounterMode``,
bytes from ``element_size()``). The roofline strategy is checked to keep its
promise: on every drawn case both ways of testing "compute-bound" agree.
"""

import math
import re
import time

import pytest
import torch
from hypothesis import given, strategies as st
from torch.utils.flop_counter import FlopCounterMode

from grader.harness.tamper import reaches
from grader.judges import part05 as cuda_bench
from selftest.grading import ROOT
from reference import roofline as R
from tests.strategies import part05 as S

DENSE_BF16 = {"A100": 312e12, "H100": 1979e12 / 2, "H200": 1979e12 / 2}


def test_tables_hold_the_datasheet_figures():
    for chip, bf16 in DENSE_BF16.items():
        peaks = R.PEAK_FLOPS_PER_SEC[chip]
        assert peaks[torch.bfloat16] == peaks[torch.float16] == pytest.approx(bf16, rel=1e-3)
    assert R.PEAK_FLOPS_PER_SEC["A100"][torch.float32] == 19.5e12
    assert R.PEAK_FLOPS_PER_SEC["H100"][torch.float32] == R.PEAK_FLOPS_PER_SEC["H200"][torch.float32] == 67e12
    assert R.PEAK_FLOPS_PER_SEC["H100"][torch.float8_e4m3fn] == 2 * R.PEAK_FLOPS_PER_SEC["H100"][torch.bfloat16]
    assert torch.float8_e4m3fn not in R.PEAK_FLOPS_PER_SEC["A100"]
    assert R.HBM_BYTES_PER_SEC == {"A100": 2.039e12, "H100": 3.35e12, "H200": 4.8e12}


def test_known_and_unknown_device_names():
    for name, chip in S.KNOWN_NAMES.items():
        assert R.promised_flops_per_sec(name, torch.bfloat16) == R.PEAK_FLOPS_PER_SEC[chip][torch.bfloat16]
    for name in S.UNKNOWN_NAMES:
        with pytest.raises(ValueError, match="unknown device"):
            R.promised_flops_per_sec(name, torch.bfloat16)


def test_strategy_asks_for_exactly_the_required_dtypes():
    assert {chip: set(peaks) for chip, peaks in R.PEAK_FLOPS_PER_SEC.items()} == {
        chip: set(dtypes) for chip, dtypes in S.TABLE_DTYPES.items()}


@given(S.chip_names(), st.sampled_from(S.TABLE_DTYPES["H100"] + S.NO_FP8 + (torch.float64,)))
def test_promised_reads_the_chips_table(named, dtype):
    name, chip = named
    peaks = R.PEAK_FLOPS_PER_SEC[chip]
    if dtype in peaks:
        assert R.promised_flops_per_sec(name, dtype) == peaks[dtype]
    else:
        with pytest.raises(ValueError, match=f"no {dtype} peak"):
            R.promised_flops_per_sec(name, dtype)


@given(S.mfu_cases())
def test_mfu_times_peak_is_achieved_rate(case):
    flops, seconds, peak = case
    assert math.isclose(R.mfu(*case) * peak * seconds, flops, rel_tol=1e-12, abs_tol=1e-300)


@given(S.intensity_cases())
def test_intensity_from_real_tensors(case):
    b, d, f = case[:3]
    nbytes = case[3] if len(case) > 3 else 2
    x, w = torch.empty(b, d, device="meta"), torch.empty(d, f, device="meta")
    mode = FlopCounterMode(display=False)
    with mode:
        y = x @ w
    moved = nbytes * (x.numel() + w.numel() + y.numel())
    assert math.isclose(R.matmul_arithmetic_intensity(*case), mode.get_total_flops() / moved, rel_tol=1e-12)


@given(S.roofline_cases())
def test_roofline_cases_never_tie_inexactly(case):
    intensity, peak, bandwidth = case
    by_ratio = intensity >= peak / bandwidth
    by_product = intensity * bandwidth >= peak
    assert by_ratio == by_product == R.is_compute_bound(*case)
    assert R.attainable_flops_per_sec(*case) == (peak if by_product else intensity * bandwidth)
    assert R.ridge_point(peak, bandwidth) == peak / bandwidth


def test_time_matmul_on_cpu():
    start = time.perf_counter()
    seconds = R.time_matmul(256, 256, 256, torch.float32, "cpu", 2, 5)
    assert 0 < seconds * 5 < time.perf_counter() - start


def test_docstring_examples():
    assert R.promised_flops_per_sec("NVIDIA H100 80GB HBM3", torch.bfloat16) == 989.5e12
    assert R.promised_flops_per_sec("NVIDIA A100-SXM4-80GB", torch.float32) == 19.5e12
    assert R.promised_flops_per_sec("NVIDIA H200", torch.float8_e4m3fn) == 1979e12
    assert R.mfu(989.5e12, 2.0, 989.5e12) == 0.5
    assert R.mfu(2 * 16384 * 32768 * 8192, 0.0178, 989.5e12) == pytest.approx(0.4994, abs=1e-4)
    assert R.matmul_arithmetic_intensity(1024, 8192, 8192) == pytest.approx(819.2, rel=1e-12)
    assert R.matmul_arithmetic_intensity(1, 8192, 8192) == pytest.approx(0.99976, abs=1e-5)
    assert R.ridge_point(989.5e12, 3.35e12) == pytest.approx(295.37, abs=0.01)
    assert R.ridge_point(989.5e12, 4.8e12) == pytest.approx(206, abs=0.5)
    assert R.attainable_flops_per_sec(1.0, 989.5e12, 3.35e12) == 3.35e12
    assert R.attainable_flops_per_sec(819.2, 989.5e12, 3.35e12) == 989.5e12
    assert R.is_compute_bound(819.2, 989.5e12, 3.35e12) and not R.is_compute_bound(1.0, 989.5e12, 3.35e12)


@pytest.mark.parametrize("call", [
    lambda: R.promised_flops_per_sec("NVIDIA GH200 480GB", torch.bfloat16),
    lambda: R.promised_flops_per_sec("NVIDIA A100-SXM4-80GB", torch.float8_e4m3fn),
    lambda: R.mfu(1e12, 0, 1e15),
    lambda: R.mfu(1e12, 1.0, 0),
    lambda: R.mfu(-1, 1.0, 1e15),
    lambda: R.matmul_arithmetic_intensity(0, 8, 8),
    lambda: R.matmul_arithmetic_intensity(8, 8, 8, 0),
    lambda: R.ridge_point(0, 1e12),
    lambda: R.attainable_flops_per_sec(-1, 1e15, 1e12),
    lambda: R.is_compute_bound(10, 1e15, 0),
    lambda: R.time_matmul(0, 8, 8, torch.float32, "cpu"),
    lambda: R.time_matmul(8, 8, 8, torch.float32, "cpu", 3, 0),
    lambda: R.measure_matmul_mfu(8, 8, 8, torch.float32, "cpu"),
], ids=["GH200", "fp8 on A100", "zero seconds", "zero peak", "negative flops", "zero size", "zero bytes",
        "zero ridge peak", "negative intensity", "zero bandwidth", "zero matmul size", "zero trials", "mfu on cpu"])
def test_bad_arguments_raise_value_error(call):
    with pytest.raises(ValueError, match=r"\w"):
        call()


# --------------------------------------------------------------------------- GPU
@pytest.mark.cuda
@pytest.mark.parametrize("m, k, n, dtype", cuda_bench.SIZES)
def test_harness_timing_matches_a_standard_benchmark(m, k, n, dtype):
    """The harness's events-and-flush measurement is what do_bench (or torch's Timer) finds."""
    with cuda_bench.highest_fp32_precision():
        ours = cuda_bench.time_matmul_events(m, k, n, dtype)
        theirs = cuda_bench.do_bench_reference(m, k, n, dtype)
    assert ours == pytest.approx(theirs, rel=0.1)


@pytest.mark.cuda
@pytest.mark.parametrize("m, k, n, dtype", cuda_bench.SIZES)
def test_reference_timing_on_gpu(m, k, n, dtype):
    with cuda_bench.highest_fp32_precision():
        seconds = R.time_matmul(m, k, n, dtype, "cuda")
        harness = cuda_bench.time_matmul_events(m, k, n, dtype)
    assert 0.7 * harness <= seconds <= 1.5 * harness  # a plain wall-clock loop, clocks still ramping
    if set(re.split(r"[^A-Z0-9]+", torch.cuda.get_device_name().upper())) & set(S.CHIPS):
        with cuda_bench.highest_fp32_precision():
            assert 0.3 < R.measure_matmul_mfu(m, k, n, dtype, "cuda") <= 1.0


# --------------------------------------------------------------------------- reading a clock
CLOCKED = {
    "time.perf_counter": "import time\n\ndef time_matmul(*a):\n    s = time.perf_counter()\n    return time.perf_counter() - s\n",
    "from-import alias": "from time import perf_counter as clock\n\ndef time_matmul(*a):\n    return clock()\n",
    "module alias": "import time as t\n\ndef time_matmul(*a):\n    return t.monotonic()\n",
    "helper": "import time\n\ndef _now():\n    return time.time()\n\ndef time_matmul(*a):\n    return _now()\n",
    "benchmark": "from torch.utils import benchmark\n\ndef time_matmul(*a):\n"
                 "    return benchmark.Timer('a @ b').timeit(3).mean\n",
    "timeit": "import timeit\n\ndef time_matmul(*a):\n    return timeit.timeit(lambda: None, number=3)\n",
    "cuda events": "import torch\n\ndef time_matmul(*a):\n    e = torch.cuda.Event(enable_timing=True)\n    return 0.0\n",
    "a timer class": "import time\n\nclass Timer:\n    def __enter__(self):\n        self.start = time.perf_counter()\n"
                     "        return self\n\n    def __exit__(self, *exc):\n        self.seconds = time.perf_counter() - self.start\n\n"
                     "def time_matmul(*a):\n    with Timer() as t:\n        pass\n    return t.seconds\n",
    "a clock handed on": "import time\n\ndef time_matmul(*a, clock=time.perf_counter):\n    return clock() - clock()\n",
    "imported in the function": "def time_matmul(*a):\n    from time import perf_counter\n    s = perf_counter()\n"
                                "    return perf_counter() - s\n",
    "a star import": "from time import *\n\ndef time_matmul(*a):\n    s = perf_counter()\n    return perf_counter() - s\n",
    "torch.Event": "import torch\n\ndef time_matmul(*a):\n    s, e = torch.Event(enable_timing=True), torch.Event(enable_timing=True)\n"
                   "    return s.elapsed_time(e) / 1e3\n",
    "a partial": "import time, functools\n\ndef _t(*a, clock):\n    s = clock()\n    return clock() - s\n\n"
                 "time_matmul = functools.partial(_t, clock=time.perf_counter)\n",
    # `f = D(f)` after its def is `@D def f` (round 32: an honest student's torch.no_grad()(f) read no clock)
    "decorated by a call after its def": "import time, torch\n\ndef time_matmul(*a):\n    s = time.perf_counter()\n"
                                         "    return time.perf_counter() - s\n\ntime_matmul = torch.no_grad()(time_matmul)\n",
}
UNCLOCKED = {
    "made up": "def time_matmul(m, k, n, *a):\n    return 2 * m * k * n / 5e10\n",
    "padded": "import time\n\ndef time_matmul(m, k, n, *a):\n    time.sleep(0.01)\n    return 1e-3\n",
    "clock elsewhere": "import time\n\ndef other():\n    return time.perf_counter()\n\ndef time_matmul(*a):\n    return 1e-3\n",
    "a branch that never runs": "import time\n\ndef time_matmul(m, k, n, *a):\n    if False:\n"
                                "        time.perf_counter()\n    return 2 * m * k * n / 5e10\n",
    "after its return": "import time\n\ndef time_matmul(m, k, n, *a):\n    return 2 * m * k * n / 5e10\n"
                        "    time.perf_counter()\n",
    "rebound after its def": "import time\n\ndef time_matmul(*a):\n    return time.perf_counter()\n\n"
                             "def _made_up(m, k, n, *a):\n    return 2 * m * k * n / 5e10\n\ntime_matmul = _made_up\n",
    "clock rebound": "from time import perf_counter\n\nperf_counter = lambda: 0.5\n\n"
                     "def time_matmul(*a):\n    return perf_counter()\n",
    "a default never used": "import time\n\ndef time_matmul(m, k, n, *a, clock=time.perf_counter):\n    return 2 * m * k * n / 5e10\n",
    "a flag set once": "import time\n\nDEBUG = False\n\ndef time_matmul(m, k, n, *a):\n    if DEBUG:\n"
                       "        print(time.perf_counter())\n    return 2 * m * k * n / 5e10\n",
    "short-circuited": "import time\n\ndef time_matmul(m, k, n, *a):\n    False and time.perf_counter()\n"
                       "    return 2 * m * k * n / 5e10\n",
    "TYPE_CHECKING": "import time\nfrom typing import TYPE_CHECKING\n\ndef time_matmul(m, k, n, *a):\n    if TYPE_CHECKING:\n"
                     "        time.perf_counter()\n    return 2 * m * k * n / 5e10\n",
    "shadowed in the function": "import time\n\ndef time_matmul(m, k, n, *a):\n    perf_counter = lambda: 0.0\n"
                                "    return perf_counter() + 2 * m * k * n / 5e10\n",
    "rebound in a try": "from time import perf_counter\ntry:\n    perf_counter = lambda: 0.0\nexcept Exception:\n    pass\n\n"
                        "def time_matmul(*a):\n    return perf_counter() + 1e-3\n",
}
# the function rebound after its def in ways a reading cannot follow: nothing is read as it
REBOUND = {
    "unpacked": "time_matmul, _x = _made, None\n",
    "walrus": "(time_matmul := _made)\n",
    "loop": "for time_matmul in [_made]:\n    pass\n",
    "global": "def _swap():\n    global time_matmul\n    time_matmul = _made\n\n_swap()\n",
    # a decoration by assignment only of the def the name is bound to right then
    "bound to another, then decorated": "time_matmul = _made\ntime_matmul = torch.no_grad()(time_matmul)\n",
}


@pytest.mark.parametrize("name", sorted(CLOCKED))
def test_every_way_to_read_a_clock_is_read(name):
    from grader.harness.source import Module

    assert Module.parse(CLOCKED[name], "roofline").clock_reads("time_matmul"), name


@pytest.mark.parametrize("name", sorted(UNCLOCKED))
def test_a_figure_without_a_clock_is_seen(name):
    from grader.harness.source import Module

    assert Module.parse(UNCLOCKED[name], "roofline").clock_reads("time_matmul") == [], name


@pytest.mark.parametrize("name", sorted(REBOUND))
def test_a_function_rebound_where_a_reading_cannot_follow_reads_no_clock(name):
    from grader.harness.source import Module

    text = ("import time\n\ndef time_matmul(*a):\n    return time.perf_counter()\n\n"
            "def _made(m, k, n, *a):\n    return 2 * m * k * n / 5e10\n\n" + REBOUND[name])
    assert Module.parse(text, "roofline").clock_reads("time_matmul") == [], name


def test_a_clock_read_in_a_helper_module_is_read():
    from grader.harness.source import is_clock, package_names

    sources = {"roofline": "from .timing import Timer\n\ndef time_matmul(*a):\n    with Timer() as t:\n        pass\n"
                           "    return t.seconds\n",
               "timing": "import time\n\nclass Timer:\n    def __enter__(self):\n        self.s = time.perf_counter()\n"
                         "        return self\n\n    def __exit__(self, *e):\n        self.seconds = time.perf_counter() - self.s\n"}
    assert package_names(sources, "roofline", "time_matmul", is_clock) == ["timing.py:5", "timing.py:9"]
    sources["timing"] = sources["timing"].replace("time.perf_counter()", "0.5")
    assert package_names(sources, "roofline", "time_matmul", is_clock) == []


BENCH = ("import time\n\n__all__ = ['seconds_per_call']\n\n"
         "def seconds_per_call(fn, calls):\n    start = time.perf_counter()\n    for _ in range(calls):\n        fn()\n"
         "    return (time.perf_counter() - start) / calls\n")
STAR_ROOFLINE = "from ._bench import *\n\ndef time_matmul(*a):\n    return seconds_per_call(lambda: None, 3)\n"
FAKE = "def seconds_per_call(fn, calls):\n    return 1e-3\n"
# a timing helper that `from ._bench import *` brings into roofline.py: (roofline.py, the other modules)
STAR_CLOCKED = {
    "a helper its __all__ lists": (STAR_ROOFLINE, {"_bench": BENCH}),
    "a public helper, no __all__": (STAR_ROOFLINE, {"_bench": BENCH.replace("__all__ = ['seconds_per_call']\n\n", "")}),
    "the package's absolute name": (STAR_ROOFLINE.replace("from ._bench", "from assignment._bench"), {"_bench": BENCH}),
    "a star of a star": (STAR_ROOFLINE.replace("._bench", "._tools"), {"_tools": "from ._bench import *\n", "_bench": BENCH}),
    "the clock itself": ("from ._bench import *\n\ndef time_matmul(*a):\n    s = perf_counter()\n    return perf_counter() - s\n",
                         {"_bench": "from time import perf_counter\n"}),
    "an alias in the helper module": (STAR_ROOFLINE, {"_bench": "import functools, time\n\n"
                                                                "def _timed(fn, calls, clock):\n    s = clock()\n    return clock() - s\n\n"
                                                                "seconds_per_call = functools.partial(_timed, clock=time.perf_counter)\n"}),
}
# ... and where what runs is not what the reading would follow: no clock is read
STAR_UNCLOCKED = {
    "bound only in a branch that never runs": (STAR_ROOFLINE, {"_bench": "import time\nif False:\n    "
                                                                          + BENCH.split("\n\n", 2)[2].replace("\n", "\n    ")}),
    "left out of its __all__": (STAR_ROOFLINE, {"_bench": BENCH.replace("['seconds_per_call']", "['other']")
                                                + "\ndef other():\n    pass\n"}),
    "a private name, no __all__": (STAR_ROOFLINE.replace("seconds_per_call", "_seconds_per_call"),
                                   {"_bench": BENCH.replace("__all__ = ['seconds_per_call']\n\n", "")
                                    .replace("seconds_per_call", "_seconds_per_call")}),
    "an __all__ computed": (STAR_ROOFLINE, {"_bench": BENCH.replace("['seconds_per_call']", "[n for n in dir() if n[0] != '_']")}),
    "rebound in the helper module": (STAR_ROOFLINE, {"_bench": BENCH + "\nimport os\nif os.environ.get('FAST'):\n"
                                                               "    seconds_per_call = lambda fn, calls: 1e-3\n"}),
    "rebound in roofline.py": (STAR_ROOFLINE.replace("\ndef", "import os\nif os.environ.get('FAST'):\n"
                                                     "    def seconds_per_call(fn, calls):\n        return 1e-3\n\ndef", 1),
                               {"_bench": BENCH}),
    "a later star import that may rebind it": (STAR_ROOFLINE.replace("\ndef", "import os\nif os.environ.get('FAST'):\n"
                                                                     "    from ._fake import *\n\ndef", 1),
                                               {"_bench": BENCH, "_fake": FAKE}),
    "a later star import of a library": (STAR_ROOFLINE.replace("\ndef", "from os import *\n\ndef", 1), {"_bench": BENCH}),
    "a module outside the package": (STAR_ROOFLINE.replace("from ._bench", "from .._bench"), {"_bench": BENCH}),
    "a CPU clock, not a wall clock": (STAR_ROOFLINE, {"_bench": BENCH.replace("perf_counter", "process_time")}),
    "a clock only in a function never reached": (STAR_ROOFLINE, {"_bench": "import time\n\n"
                                                                            "def unused():\n    return time.perf_counter()\n\n" + FAKE}),
}


@pytest.mark.parametrize("name", sorted(STAR_CLOCKED))
def test_a_clock_read_through_a_star_import_of_a_module_of_its_own_is_read(name):
    from grader.harness.source import is_clock, package_names

    roofline, others = STAR_CLOCKED[name]
    assert package_names({"roofline": roofline, **others}, "roofline", "time_matmul", is_clock), name


@pytest.mark.parametrize("name", sorted(STAR_UNCLOCKED))
def test_a_star_import_hides_no_clock(name):
    from grader.harness.source import is_clock, package_names

    roofline, others = STAR_UNCLOCKED[name]
    assert package_names({"roofline": roofline, **others}, "roofline", "time_matmul", is_clock) == [], name


def test_the_reference_and_the_examples_read_a_clock():
    from grader.harness.source import Module

    for path in [ROOT / "reference" / "roofline.py", *sorted((ROOT / "examples").rglob("roofline.py"))]:
        assert Module.parse(path.read_text(), "roofline").clock_reads("time_matmul"), path


def test_reading_a_submission_costs_what_its_text_costs(monkeypatch):
    """The grading process reads sources outside every limit a worker has, so a reading grows with the
    text, not faster: eight modules star-importing each other were 32,768 module readings for each name
    a function reads (minutes for one reading), and a comprehension of thousands of `for` clauses was
    walked once per clause (quadratic)."""
    import ast

    from grader.harness import source
    from grader.harness.source import audit_no_autograd, is_clock, package_names

    reads = []
    brings = source._star_brings
    monkeypatch.setattr(source, "_star_brings", lambda *a: reads.append(a[0]) or brings(*a))
    stars = "".join(f"from .m{i} import *\n" for i in range(8))
    unknown = ", ".join(f"q{j}" for j in range(100))
    roofline = stars + f"import time\n\ndef time_matmul(m):\n    t = time.perf_counter()\n    if m is None:\n" \
                       f"        return ({unknown})\n    return time.perf_counter() - t\n"
    meshed = {"roofline": roofline, "__init__": "", **{f"m{i}": stars for i in range(8)}}
    assert package_names(meshed, "roofline", "time_matmul", is_clock)
    assert len(reads) <= 101 * 9 * 8, len(reads)  # each name: each module once, each of its stars once
    visited = 0
    walk = ast.walk

    def counted(node):
        nonlocal visited
        for inner in walk(node):
            visited += 1
            yield inner

    monkeypatch.setattr(source.ast, "walk", counted)
    clauses = "".join(f" for a{i} in ('',)" for i in range(2000))
    init = f"def _never():\n    return [0{clauses}]\n\n_KEEP = _never\n"
    audit_no_autograd({"__init__": init, "gradients": "def squared_error_grad(x, w, t):\n    return x\n"},
                      "gradients", ("squared_error_grad",))
    assert visited < 200 * 2000 * 4, visited  # linear: tens of visits per clause, where each clause walked all


def test_a_function_put_in_place_through_a_setter_at_import_is_a_replacement():
    """``globals()``, ``setattr``, ``getattr(module, "__dict__")`` at import can put another function under a
    name the readings read as written; a table of ``getattr(torch, name)`` cannot, and is not charged."""
    from grader.harness.source import replaced_at_import

    honest = ("import time\nfrom . import roofline as _me\n\ndef time_matmul(m):\n    t = time.perf_counter()\n"
              "    return time.perf_counter() - t\n\ndef _cpu(m):\n    return time.process_time()\n\n")
    for setter in ("globals()['time_matmul'] = _cpu", "setattr(_me, 'time_matmul', _cpu)",
                   "getattr(_me, '__dict__')['time_matmul'] = _cpu", "vars(_me)['time_matmul'] = _cpu",
                   "time_matmul.__code__ = _cpu.__code__", "globals().update(time_matmul=_cpu)",
                   "_g = globals()\n_g['time_matmul'] = _cpu", "for _k in list(globals()):\n    globals()[_k] = _cpu",
                   "_ns = vars(_me)\n_ns['time_matmul'] = _cpu", "_me.__dict__.update(time_matmul=_cpu)",
                   "exec(compile('time_matmul = _cpu', 'x', 'exec'))",
                   # a compiler backend of its own runs in place of the code compiled
                   "import torch\ntime_matmul = torch.compile(time_matmul, backend=lambda gm, ex: _cpu)",
                   "import torch\ntime_matmul = torch._dynamo.optimize(lambda gm, ex: _cpu)(time_matmul)",
                   "import torch\n_B = 'eager'\n_B = _cpu\ntime_matmul = torch.compile(time_matmul, backend=_B)",
                   "import torch\ntime_matmul = torch.compile(time_matmul, **{'backend': _cpu})",
                   "import functools, torch\ntime_matmul = functools.partial(torch.compile, backend=_cpu)(time_matmul)",
                   "import torch\ntime_matmul = torch.compiler.compile(time_matmul, backend=_cpu)"):
        assert replaced_at_import({"__init__": "", "roofline": honest + setter + "\n"}, "roofline"), setter
    tables = ("CLOCKS = {n: getattr(time, n) for n in ('perf_counter', 'monotonic')}\nF8 = getattr(time, 'time', None)\n"
              # a namespace only read where it is made sets nothing
              "__all__ = [n for n in globals() if not n.startswith('_')]\nHAS = 'F8' in vars()\n"
              "NAMES = sorted(globals().keys())\n"
              # torch's compiler wraps a function (a compiled copy, a compiled helper): it binds no other name
              "import torch\ntime_matmul_compiled = torch.compile(time_matmul, backend='eager', dynamic=True)\n"
              "@torch.compile\ndef _fused(a, b):\n    return a @ b\n"
              # a backend torch names, kept in a name or a table of options, or chosen between two
              "_BACKEND = 'eager' if time.time() < 0 else 'inductor'\n_OPTIONS = {'dynamic': True}\n"
              "time_matmul_fast = torch.compile(time_matmul, backend=_BACKEND, **_OPTIONS)\n")
    assert replaced_at_import({"__init__": "", "roofline": honest + tables}, "roofline") == []


CONSTANTS = "class _Hbm:\n    \"\"\"Bandwidths.\"\"\"\n    A100 = 2.039e12\n    H100: float = 3.35e12\n    PAIR = (1, -2)\n\n"
READ_AT_IMPORT = "HBM = {k: v for k, v in vars(_Hbm).items() if not k.startswith('_')}\nALSO = dict(_Hbm.__dict__)\n"


@pytest.mark.parametrize("change", [
    None,
    ("class _Hbm:", "class _Hbm(dict):"), ("class _Hbm:", "class _Hbm(metaclass=type):"),
    ("class _Hbm:", "import functools\n@functools.total_ordering\nclass _Hbm:"),
    ("    PAIR = (1, -2)\n", "    PAIR = [1, -2]\n"), ("    PAIR = (1, -2)\n", "    def pair(self):\n        return 1\n"),
    ("HBM =", "_Hbm = time\nHBM ="), ("HBM =", "from .flops import *\nHBM ="),
    ("HBM =", "vars = globals\nHBM ="), ("HBM =", "def _again():\n    global _Hbm\nHBM ="),
])
def test_a_class_of_constants_read_through_its_namespace_binds_nothing(change):
    """``vars(C)`` or ``C.__dict__`` of a class kept as a namespace of constants (a plain ``class C:`` whose
    body binds only constants, bound by nothing else): the read-only mapping ``type`` made, which binds and
    runs nothing; honest submissions lost a part to it. A class that may be anything else (a base or a
    metaclass that may hand another mapping, a decorator's result, a mutable value or a method to hand out,
    its name bound again, by a star import too, ``vars`` not the builtin) is charged as before."""
    from grader.harness.source import replaced_at_import

    honest = "import time\n\ndef time_matmul(m):\n    t = time.perf_counter()\n    return time.perf_counter() - t\n\n"
    roofline = honest + CONSTANTS + READ_AT_IMPORT
    if change is None:
        assert replaced_at_import({"__init__": "", "roofline": roofline}, "roofline") == []
        assert reaches({"roofline": roofline}) == []
        return
    changed = roofline.replace(*change)
    assert changed != roofline
    found = replaced_at_import({"__init__": "", "roofline": changed, "flops": ""}, "roofline") \
        + reaches({"roofline": changed, "flops": ""})
    assert found, change


# matmul into an out= tensor under inference mode reaches the watch whole and runs as mm, then a copy_ of
# the result into `out`: with m == k == n the copy has a product's shapes, and once counted as one
OUT_UNDER_INFERENCE_MODE = '''

@torch.inference_mode()
def time_matmul(m, k, n, dtype, device, warmup=3, trials=10):
    a = torch.randn(m, k, dtype=dtype, device=device)
    b = torch.randn(k, n, dtype=dtype, device=device)
    out = torch.empty(m, n, dtype=dtype, device=device)
    for _ in range(warmup):
        torch.matmul(a, b, out=out)
    start = time.perf_counter()
    for _ in range(trials):
        torch.matmul(a, b, out=out)
    return (time.perf_counter() - start) / trials
'''


@pytest.mark.parametrize("sizes", [(48, 48, 48), (40, 24, 8)])
def test_the_product_watch_counts_products_not_the_copies_beside_them(tmp_path, sizes):
    from grader import mutants
    from grader.harness.impl import Implementation
    from grader.harness.probes.part05 import time_matmul_products

    mutants.materialize_reference(tmp_path)
    roofline = tmp_path / "assignment" / "roofline.py"
    roofline.write_text(roofline.read_text() + OUT_UNDER_INFERENCE_MODE)
    seen = time_matmul_products.fn(Implementation("assignment", tmp_path), *sizes, 2, 5, False)
    assert len(seen.products) == 2 + 5 and not seen.shapes


def test_a_clock_taken_from_a_sibling_is_read_as_the_clock():
    """roofline.py timing with the perf_counter model.py imported (``from .model import perf_counter``) reads
    a wall clock, as an import of its own would."""
    from grader.harness.source import is_clock, package_names

    roofline = ("from .model import perf_counter\n\ndef time_matmul(m, k, n, dtype, device, warmup=3, trials=10):\n"
                "    start = perf_counter()\n    return perf_counter() - start\n")
    package = {"roofline": roofline, "model": "from time import perf_counter\n", "__init__": ""}
    assert package_names(package, "roofline", "time_matmul", is_clock)


def _timings_with(figure: float):
    from tests import test_part05_roofline as T

    seen = T._Timings("m=256, k=256, n=256", 33)
    seen.returned["case"].append(figure)
    return seen


def test_a_slow_spell_of_watched_runs_is_waited_out_and_a_half_product_is_not(monkeypatch):
    """``_figures_of_watched_products`` runs the watched call again, at once and then after longer pauses:
    watched products slowed for five runs in a row (a busy machine's spell, as graded beside other work) then
    at their cost pass against a figure of one product; a figure of half a product fails however often the
    watched products run (their fastest can only fall to what a product costs)."""
    from grader.harness.faults import Mismatch
    from tests import test_part05_roofline as T

    def watched(spell: int):
        runs = iter([1.3] * spell + [1.0] * 20)
        return lambda *a, **k: next(runs)

    slept = []
    monkeypatch.setattr(T.time, "sleep", slept.append)
    monkeypatch.setattr(T, "_products_run", watched(5))
    T._figures_of_watched_products(None, "roofline.time_matmul", (256, 256, 256, None, None), _timings_with(0.95))
    assert slept and sum(slept) > 0  # waited, not only run again at once
    monkeypatch.setattr(T, "_products_run", watched(0))
    with pytest.raises(Mismatch, match="of the fastest product the same call ran when its ops were watched") as half:
        T._figures_of_watched_products(None, "roofline.time_matmul", (256, 256, 256, None, None), _timings_with(0.52))
    assert "busy machine" not in str(half.value)
    # one just under the bound may yet be a busy machine's (an honest one came to 0.72): said so, and still failed
    with pytest.raises(Mismatch, match="can also be a busy machine's: where the test passes run again with nothing"):
        T._figures_of_watched_products(None, "roofline.time_matmul", (256, 256, 256, None, None), _timings_with(0.72))


# the timed loop of a time_matmul, as students write it (each a product the watch counts), and as no product
PRODUCT_FORMS = {
    "a @ b": "a @ b",
    "matmul into out": "torch.matmul(a, b, out=out)",
    "mm": "torch.mm(a, b)",
    "transposed": "(b.T @ a.T)",
    "einsum": "torch.einsum('mk,kn->mn', a, b)",
    "linear": "torch.nn.functional.linear(a, b.T)",
    "addmm onto zeros": "torch.addmm(torch.zeros(m, n), a, b)",
    "addmm onto a term": "torch.addmm(out, a, b)",
    "linear with a bias": "torch.nn.functional.linear(a, b.T, torch.ones(n))",
    "addmm into out, beta=0": "torch.addmm(out, a, b, beta=0, out=out)",
}
NO_PRODUCT_FORMS = {
    "addmm with alpha=0": "torch.addmm(out, a, b, beta=0, alpha=0)",
    "on the meta device": "torch.mm(a.to('meta'), b.to('meta'))",
    "addmm scaled to nothing": "torch.addmm(out, a, b, alpha=1e-30)",
    # BLAS returns the added term at once, here a @ b made where the watch does not see it
    "alpha=0 onto a @ b made before": "torch.addmm(ab, a, b, alpha=0)",
    "alpha=1e-300 onto a @ b made before": "torch.addmm(ab, a, b, alpha=1e-300)",  # 0 in float32
    "a sampled sparse product": "torch.sparse.sampled_addmm(torch.eye(m, n).to_sparse_csr(), a, b)",
}


def _timing(product: str) -> str:
    return f'''

def time_matmul(m, k, n, dtype, device, warmup=3, trials=10):
    a = torch.randn(m, k, dtype=dtype, device=device)
    b = torch.randn(k, n, dtype=dtype, device=device)
    out = torch.randn(m, n, dtype=dtype, device=device)
    ab = torch.from_numpy(a.numpy() @ b.numpy())  # no op torch runs
    for _ in range(warmup):
        {product}
    start = time.perf_counter()
    for _ in range(trials):
        {product}
    return (time.perf_counter() - start) / trials
'''


@pytest.mark.parametrize("sizes", [(40, 24, 8), (24, 24, 24)])  # at the cube, addmm's added term has a's shape
@pytest.mark.parametrize("form", sorted(PRODUCT_FORMS) + sorted(NO_PRODUCT_FORMS))
def test_the_product_watch_counts_only_ops_that_multiply(tmp_path, form, sizes):
    """An op counts as a product where its result is a @ b (checked as Freivalds does), not where its shapes
    alone are a product's: addmm with alpha=0 has them, and multiplies nothing."""
    from grader import mutants
    from grader.harness.impl import Implementation
    from grader.harness.probes.part05 import time_matmul_products

    mutants.materialize_reference(tmp_path)
    roofline = tmp_path / "assignment" / "roofline.py"
    roofline.write_text(roofline.read_text() + _timing(PRODUCT_FORMS.get(form) or NO_PRODUCT_FORMS[form]))
    seen = time_matmul_products.fn(Implementation("assignment", tmp_path), *sizes, 2, 5, False)
    if form in PRODUCT_FORMS:
        assert (len(seen.products), seen.unmultiplied, seen.shapes) == (7, 0, ())
        assert 0 < seen.checked_seconds < sum(seen.products[2:]) + 0.05
    else:
        assert (len(seen.products), seen.unmultiplied) == (0, 7)


@pytest.mark.parametrize("timer", [
    "class _Timer:\n    import time\n\n    def __enter__(self):\n        self.start = self.time.perf_counter()\n"
    "        return self\n\n    def __exit__(self, *_):\n        self.seconds = self.time.perf_counter() - self.start\n",
    "class _Timer:\n    from time import perf_counter as now\n\n    def __enter__(self):\n"
    "        self.start = _Timer.now()\n        return self\n\n    def __exit__(self, *_):\n"
    "        self.seconds = _Timer.now() - self.start\n",
])
def test_a_clock_a_timer_class_imports_in_its_body_is_read(timer):
    """A Timer class importing its clock in its body (round 35): ``self.time.perf_counter()``, ``_Timer.now()``
    read the class's attribute the import bound, a wall clock."""
    from grader.harness.source import is_clock, package_names

    roofline = timer + ("\ndef time_matmul(m, k, n, dtype, device, trials=10, warmup=2):\n"
                        "    with _Timer() as t:\n        pass\n    return t.seconds / trials\n")
    assert package_names({"roofline": roofline}, "roofline", "time_matmul", is_clock), timer


@pytest.mark.parametrize("calls_before", [0, 1])
def test_a_timer_drawing_in_its_loop_on_every_other_call_is_seen_whichever_call_comes_first(tmp_path, calls_before):
    """The op-by-op watch of the thin product runs two calls in a row before any round can end it: a timer
    that draws its inputs inside the timed loop on every other call is seen drawing in one of them and not in
    the other, whether the watch's first call is one it draws in or not (a busy machine's extra call earlier in
    the test flips which). The reference, watched so, passes."""
    from grader import mutants
    from grader.harness.door import Door
    from grader.harness.faults import Mismatch
    from grader.harness.impl import Implementation
    from grader.harness.transport import InProcess
    from tests import test_part05_roofline as T

    mutant = next(m for m in mutants.discover() if m.name == "part05_time_inputs_drawn_in_loop_every_other_call")
    for name, source in (("reference", None), ("alternating", mutant)):
        folder = tmp_path / name
        if source is None:
            mutants.materialize_reference(folder)
        else:
            mutants.materialize(source, folder)
            roofline = folder / "assignment" / "roofline.py"
            roofline.write_text(roofline.read_text().replace("_CALLS = []", f"_CALLS = {[1] * calls_before}"))
        impl = Implementation("assignment", folder)
        door = Door(InProcess(impl), label=name, files=impl)
        counted = (768, 704, 8, None, None)
        if source is None:
            T._products_run(door, "roofline.time_matmul", counted)
        else:
            with pytest.raises(Mismatch, match="it draws inside its timed loop in some calls"):
                T._products_run(door, "roofline.time_matmul", counted)


def test_a_figure_off_by_its_units_or_by_sparsity_says_so_written_as_an_int_too():
    """A datasheet table's expected figure is a digest (shown as ?): the hint is a student's one clue, and a
    figure written as an int (2039, 624 * 10**12) got none where the same figure as a float did (red team)."""
    from tests.test_part05_roofline import wrong_figure

    for value in (2039, 2039.0):
        assert "in GB/s or GFLOP/s?" in wrong_figure(value, 2.039e12) and "2039e9" in wrong_figure(value, 2.039e12)
    for value in (624 * 10**12, 624e12):
        assert "2:4 sparsity" in wrong_figure(value, 312e12)
    assert wrong_figure(1.0, 2.039e12) == wrong_figure(True, 2.039e12) == "wrong value"
