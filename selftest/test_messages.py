"""Staff check: what a student reads when something goes wrong, as a student runs pytest.

* a function stuck in a loop is named (the innermost of the student's functions,
  not the one the test called), with its own inputs and the line it was on; it
  costs its time limit once: every later question about it fails at once the same way, and
  a call to it from another function is stopped after a short second chance (it may have hung
  on one input only: its callers lose their points only where they reach such an input);
* a value of the wrong kind says, in plain words, what came back and what was expected;
* a function whose signature does not fit the spec is the student's error, not the harness's;
* ``pytest --submission DIR`` (with a space, as the README writes it) works for a
  folder anywhere;
* ``pytest -m cuda`` without a GPU says why the tests were skipped, without ``-rs``;
* a fixed-input answer (a datasheet table, the E2M1 grid) is shown as ``?`` where it was expected, graded
  against the reference as at home against the handout's digests: a message reaches the student, on
  Gradescope too, and one resubmission per entry would otherwise read the answer key;
* autograd found only in what importing gradients.py runs (an autograd.Function kept as a cross-check) is
  said to be there, with where a cross-check goes, not blamed on the gradient function tested.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

from grader import mutants
from selftest.grading import ROOT, environment

STUCK = '''

def get_batch(data, batch_size, rng, device="cpu"):
    while True:
        batch_size = batch_size + 1 - 1
'''

STUCK_ON_EMPTY = '''

_right_contiguous_strides = contiguous_strides
_right_is_contiguous = is_contiguous


def contiguous_strides(shape):
    while 0 in shape:
        pass
    return _right_contiguous_strides(shape)


def is_contiguous(shape, strides):
    if 0 in shape:
        return True
    contiguous_strides(shape)
    return _right_is_contiguous(shape, strides)
'''

WRONG_KIND = '''

_reference_view = view_strides


def view_strides(shape, strides, new_shape):
    found = _reference_view(shape, strides, new_shape)
    return tuple(new_shape) if found is None else found  # a tuple where torch would need a copy
'''


WRONG_SIGNATURE = '''

def view_strides(shape, strides):
    return None
'''


# every fixed-input answer wrong: each figure of both tables 1.5 times the reference's, the E2M1 grid and
# formats off by one
WRONG_FIXED_ROOFLINE = '''

PEAK_FLOPS_PER_SEC = {chip: {dtype: peak * 1.5 for dtype, peak in peaks.items()}
                      for chip, peaks in PEAK_FLOPS_PER_SEC.items()}
HBM_BYTES_PER_SEC = {chip: rate * 1.5 for chip, rate in HBM_BYTES_PER_SEC.items()}
'''

WRONG_FIXED_DTYPES = '''

_FORMATS = {dtype: FloatFormat(fmt.exponent_bits + 1, fmt.mantissa_bits, fmt.special)
            for dtype, fmt in _FORMATS.items()}
FP4_E2M1 = FloatFormat(2, 2, "none")
_right_values = nvfp4_values


def nvfp4_values():
    return [v * 3 for v in _right_values()]
'''


def submission(folder: Path, module: str, appended: str) -> Path:
    mutants.materialize_reference(folder)
    target = folder / "assignment" / f"{module}.py"
    target.write_text(target.read_text() + appended)
    return folder


def pytest(*args: str, cwd: Path = ROOT, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", *args, "-p", "no:cacheprovider"], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout, env=environment())


def test_a_stuck_function_is_named_with_its_inputs_and_line_and_costs_its_limit_once(tmp_path):
    sub = submission(tmp_path / "stuck", "training", STUCK)
    started = time.monotonic()
    run = pytest("tests/test_part09_training.py", "--submission", str(sub), "--timeout-scale", "0.1",
                 "-k", "get_batch or trajectory or clears")
    took = time.monotonic() - started
    out = run.stdout
    assert "timed out after 1 s in training.get_batch" in out, out[-3000:]
    assert "input:    data=numpy array(shape=" in out and "batch_size=" in out
    # an input to make again: the dataset's first values, and the generator as made (not its address)
    assert ", values=[" in out and "rng=np.random.default_rng([" in out and " at 0x" not in out, out[-3000:]
    assert "at        assignment/training.py:" in out and "in get_batch" in out
    # train's tests call get_batch inside train: named as get_batch, with the inputs it hung on again, stopped
    # after a short second chance (it might have hung on one input only)
    assert out.count("(earlier in this run; called again by another function, it did not finish in") >= 2, \
        out[-3000:]
    assert took < 30, f"a stuck function cost {took:.0f} s: its limit is 1 s here"


def test_what_a_module_holds_from_its_import_is_not_charged_to_its_first_watched_call(tmp_path):
    """At home every module is imported in the pytest process, on the first call into it: a training.py
    holding 96 MiB from its import (a table, torch._dynamo behind a @torch.compile) is not told that its
    open_dataset read the file into memory."""
    sub = submission(tmp_path / "heavy-import", "training",
                     "\n_SCRATCH = np.ones(96 * 2**20 // 8)  # touched: resident from the import on\n")
    run = pytest("tests/test_part09_training.py", "--submission", str(sub), "-k", "open_dataset or get_batch")
    assert run.returncode == 0, run.stdout[-3000:]


def test_a_function_stuck_on_one_input_fails_only_the_callers_that_reach_that_input(tmp_path):
    """contiguous_strides hangs on an empty shape; is_contiguous calls it on the others only (and passes alone):
    is_contiguous's test passes after contiguous_strides's timed out, and view_strides's, which reaches an empty
    shape, fails naming that shape."""
    sub = submission(tmp_path / "one-input", "strides", STUCK_ON_EMPTY)
    out = pytest("tests/test_part01_strides.py", "--submission", str(sub), "--timeout-scale", "0.1").stdout
    assert "FAILED tests/test_part01_strides.py::test_contiguous_strides" in out, out[-3000:]
    assert "test_is_contiguous" not in out, out[-3000:]
    assert "FAILED tests/test_part01_strides.py::test_view_strides" in out, out[-3000:]
    assert "called again by another function, it did not finish in 0.1 s either)\n  input:    shape=(" in out, \
        out[-3000:]


def test_a_value_of_the_wrong_kind_is_said_in_plain_words(tmp_path):
    sub = submission(tmp_path / "kind", "strides", WRONG_KIND)
    out = pytest("tests/test_part01_strides.py", "--submission", str(sub), "-k", "view_strides").stdout
    assert "wrong value: returned a tuple where None was expected" in out, out[-2000:]


def test_a_function_with_the_wrong_signature_is_the_students_error_not_the_harness(tmp_path):
    sub = submission(tmp_path / "signature", "strides", WRONG_SIGNATURE)
    out = pytest("tests/test_part01_strides.py", "--submission", str(sub), "-k", "test_view_strides").stdout
    assert "strides.view_strides raised TypeError: view_strides() takes 2 positional arguments but 3 were given" \
        in out, out[-2000:]
    assert "harness error" not in out, out[-2000:]


def test_a_module_that_does_not_parse_says_where_once(tmp_path):
    sub = mutants.materialize_reference(tmp_path / "syntax")
    module = sub / "assignment" / "strides.py"
    module.write_text(module.read_text() + "\ndef broken(:\n")
    out = pytest("tests/test_part01_strides.py", "--submission", str(sub), "-x", "-q").stdout
    line = len(module.read_text().splitlines())
    assert f"does not import: SyntaxError: invalid syntax (assignment/strides.py, line {line})" in out, out[-2000:]
    assert "(strides.py, line" not in out, out[-2000:]


LOOPS_AT_IMPORT = "\nwhile True:\n    pass\n"


def test_a_module_that_loops_when_imported_says_so_with_its_line_once(tmp_path):
    """A loop at a module's top level once read "does not import: Expired: memory.<module>" at home (the name of
    the harness's own alarm) and, graded, "timed out in" each function its tests asked: it is said as what it is,
    with the line, and costs the limit once."""
    sub = submission(tmp_path / "loops", "strides", LOOPS_AT_IMPORT)
    line = len((sub / "assignment" / "strides.py").read_text().splitlines()) - 1
    started = time.monotonic()
    run = pytest("tests/test_part01_strides.py", "--submission", str(sub), "--timeout-scale", "0.1", "-q")
    said = (f"assignment/strides.py does not import: it was still running when the time limit ran out "
            f"(assignment/strides.py, line {line})")
    assert run.stdout.count(said) >= 6 and "Expired" not in run.stdout, run.stdout[-3000:]
    assert time.monotonic() - started < 15, "each test should not pay the limit again"


def test_a_worker_stops_a_module_that_loops_when_imported_and_says_so_to_each_question(tmp_path):
    """A sandboxed worker imports the submission first (``Runner.import_all``), under a limit of its own shorter
    than the grader's: the looping module does not import, said with its line to every question asked of it,
    where the grader once killed the worker and blamed each function asked ("timed out in ...")."""
    import pytest as pytest_

    from grader.harness.impl import Implementation, LoadError
    from grader.harness.runner import Runner

    sub = submission(tmp_path / "loops", "memory", LOOPS_AT_IMPORT)
    impl = Implementation("assignment", sub)
    started = time.monotonic()
    Runner(impl).import_all(0.5)
    assert time.monotonic() - started < 5
    for _ in range(2):  # said again at once
        with pytest_.raises(LoadError, match="memory.py does not import: it was still running when the time limit"):
            impl.module("memory")
    assert time.monotonic() - started < 5
    # the modules after it (in MODULES' order) are imported when asked, each under its call's own limit
    assert impl.tried("strides") and not impl.tried("flops") and impl.module("flops") is not None


def test_submission_with_a_space_works_for_a_folder_anywhere(tmp_path):
    sub = mutants.materialize_reference(tmp_path / "elsewhere")
    run = pytest("tests/test_part01_strides.py", "--submission", str(sub), "-q")
    assert run.returncode == 0 and "7 passed" in run.stdout or "6 passed" in run.stdout, run.stdout[-2000:]


def test_skipped_cuda_tests_say_why(tmp_path):
    out = pytest("tests", "--impl", "reference", "-m", "cuda", "-q").stdout
    assert "cuda test(s) skipped: needs a CUDA device" in out, out[-2000:]
    # and only where the run reached them: a run of one part deselects them, and says nothing of them
    out = pytest("tests/test_part01_strides.py", "tests/test_part10_mixed_precision.py", "--impl", "reference",
                 "-m", "part1", "-q").stdout
    assert "passed" in out and "cuda" not in out, out[-2000:]


def test_a_fixed_input_answer_is_never_shown_when_graded_against_the_reference(tmp_path):
    from reference import roofline

    sub = submission(tmp_path / "fixed", "roofline", WRONG_FIXED_ROOFLINE)
    dtypes = sub / "assignment" / "dtypes.py"
    dtypes.write_text(dtypes.read_text() + WRONG_FIXED_DTYPES)
    out = pytest("tests/test_part02_dtypes.py", "tests/test_part05_roofline.py",
                 "tests/hidden/test_part05_roofline_hidden.py", "--submission", str(sub),
                 "-k", "format or values or table or promised").stdout
    for test in ("test_float_format", "test_nvfp4_values", "test_peak_flops_table", "test_hbm_table",
                 "test_promised_flops_per_sec", "test_promised_agrees_with_own_table"):
        assert any(line.startswith("FAILED ") and f"::{test}" in line for line in out.splitlines()), out[-3000:]
    expected = [line.strip() for line in out.splitlines() if line.strip().startswith("expected:")]
    assert len(expected) == 6 and not any(re.search(r"\d", re.sub(r"\(\d+ items\)", "", line)) for line in expected), \
        expected
    figures = [*roofline.HBM_BYTES_PER_SEC.values(),
               *(peak for peaks in roofline.PEAK_FLOPS_PER_SEC.values() for peak in peaks.values())]
    for figure in figures:
        for text in (repr(figure), f"{figure:.10g}", f"{figure:.4g}", f"{figure:g}"):
            assert text not in out, (text, out[-3000:])


def test_a_container_of_the_right_kind_with_too_few_items_is_a_wrong_length():
    from grader.harness.ask import headline
    from grader.harness.schema import FLOAT, INT, ListOf, Tuple

    for schema, value, said in ((ListOf(FLOAT, 0), [1.0], "a list of 1 item; expected 0"),
                                (Tuple(INT, INT), (1, 2, 3), "a tuple of 3 items; expected 2")):
        why = schema.problem(value)
        assert headline(why) == "wrong length" and said in why, why
    assert headline(ListOf(FLOAT).problem((1.0,))) == "wrong type"


def test_two_values_that_read_alike_at_ten_digits_are_shown_whole():
    """A tight tolerance's miss: ``35555555556.0`` (a whole float, every digit shown) beside the quotient's first
    ten digits, ``3.555555556e+10``, reads as the same number; both are shown with every digit they have."""
    from grader.harness.faults import Mismatch

    said = Mismatch("memory.max_trainable_params", "wrong value", got=35555555556.0,
                    expected=640000000000 / 18).describe()
    assert "returned: 35555555556.0" in said and "expected: 35555555555.55556" in said, said
    assert "expected: 2.0" in Mismatch("f", "wrong value", got=1.0, expected=2.0).describe()


def test_a_refusal_read_from_the_source_is_its_own_summary(tmp_path):
    """What a reading of the files finds (autograd used, a clock never read) holds no example and nothing the
    run sent: the summary a Gradescope run shows at once is the whole of it, where it read "a wrong answer"
    of right answers; a wrong value's summary still holds nothing of its example."""
    import json

    from grader.harness.faults import Mismatch, SourceRefusal

    refusal = SourceRefusal("gradients.squared_error_grad", "used autograd (.backward at gradients.py:9)")
    assert refusal.summary() == refusal.describe() == "gradients.squared_error_grad: used autograd (.backward at " \
        "gradients.py:9)"
    assert Mismatch("f", "wrong value", inputs="x=1", got=1, expected=2).summary() == "f: a wrong answer"
    [mutant] = [m for m in mutants.discover() if m.name == "part07_autograd"]
    sub = mutants.materialize(mutant, tmp_path / "sub")
    script = ("import json, sys, pytest\nfrom grader.outcomes import Collector\nc = Collector()\n"
              f"pytest.main(['-q', '-p', 'no:cacheprovider', 'tests/test_part07_gradients.py', '--submission', "
              f"{str(sub)!r}, '-k', 'test_no_autograd'], plugins=[c])\n"
              "print('SUMMARY', json.dumps([o.summary for o in c.outcomes.values() if o.kind == 'wrong']))")
    run = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env=environment())
    [line] = [line for line in run.stdout.splitlines() if line.startswith("SUMMARY ")] or [run.stdout[-3000:]]
    summaries = json.loads(line.removeprefix("SUMMARY "))
    assert summaries and all("used autograd (uses .requires_grad_ at gradients.py:" in text
                             and "a wrong answer" not in text for text in summaries), summaries


def test_numpy_inputs_are_shown_as_one_could_make_them_again():
    """A dataset's first values, and a generator as its seed sequence says it was made (an address told
    nothing); one made otherwise (spawned, another bit generator) is named, not given a seed it lacks."""
    import numpy as np

    from grader.harness.show import show

    assert show(np.random.default_rng([7, 1])) == "np.random.default_rng([7, 1])"
    assert show(np.random.default_rng(3)) == "np.random.default_rng(3)"
    assert show(np.random.default_rng(3).spawn(1)[0]) == "numpy Generator(PCG64)"
    assert show(np.random.Generator(np.random.MT19937(5))) == "numpy Generator(MT19937(5))"
    assert show(np.arange(6, dtype=np.float32).reshape(2, 3)) == \
        "numpy array(shape=(2, 3), dtype=float32, values=[0.0, 1.0, 2.0, 3.0, 4.0, 5.0])"
    assert show(np.zeros(20, dtype=np.int64)).endswith(", 0, ... 20 values])")
    assert show(np.array(["a"])) == "numpy array(shape=(1,), dtype=<U1)"


def test_a_raised_message_s_lines_are_set_off_from_the_harness_s():
    """The implementation's text may imitate the harness ("HARNESS ERROR ..."): its lines after the first
    are set off, so none reads as the harness's own."""
    from grader.harness.faults import StudentRaised

    text = StudentRaised("strides.f", "RuntimeError", "x\n\nHARNESS ERROR: not your code", "", "n=1").describe()
    assert not any(line.startswith("HARNESS") for line in text.splitlines()), text
    assert "  | HARNESS ERROR: not your code" in text and text.splitlines()[-1] == "  input:    n=1"


AUTOGRAD_FUNCTION_KEPT = '''

class HandLinear(torch.autograd.Function):
    """My linear_backward plugged into autograd, to check it: never used by the gradient functions."""

    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        return x @ w

    @staticmethod
    def backward(ctx, grad_y):
        return linear_backward(*ctx.saved_tensors, grad_y)
'''


def test_autograd_in_what_importing_gradients_runs_is_said_to_be_there():
    """A subclass of torch.autograd.Function kept in gradients.py (a cross-check the gradient functions never
    call) fails the no-autograd test, by the docstring's rule; the message says it is what importing the module
    runs, and where a cross-check goes, instead of blaming squared_error_grad."""
    from tests.test_part07_gradients import no_autograd

    class _Impl:
        @staticmethod
        def sources():
            return {"gradients": (ROOT / "reference" / "gradients.py").read_text() + AUTOGRAD_FUNCTION_KEPT,
                    "__init__": ""}

    class _Function:
        name = "gradients.squared_error_grad"

    try:
        no_autograd(_Impl, _Function, [])
    except BaseException as failure:  # the test's one-paragraph failure
        said = str(failure)
    else:
        raise AssertionError("an autograd.Function kept in gradients.py passed the no-autograd test")
    assert "what importing gradients.py runs uses autograd" in said and "subclass of torch.autograd.Function" in said
    assert "__main__" in said, said


COMPILED_COPY = '''

def squared_error_loss(x, w, target):
    return 0.5 * (torch.dot(x, w) - target) ** 2


fast_squared_error_loss = torch.compile(squared_error_loss, backend="eager")
'''


def test_a_compiled_copy_kept_beside_the_gradients_is_charged_only_where_they_run_it():
    """The handout welcomes torch.compile but on Part 7's gradient functions: a compiled copy of a loss kept in
    gradients.py, never run by them, passes; the gradient function compiled fails, said as such."""
    from tests.test_part07_gradients import no_autograd

    compiled_gradient = "_grad = squared_error_grad\nsquared_error_grad = torch.compile(_grad, backend='eager')\n"
    called = COMPILED_COPY.replace("def squared_error_loss", "def squared_error_grad(x, w, target):\n"
                                   "    return fast_squared_error_loss(x, w, target) * x\n\n\ndef squared_error_loss")
    # ... or in a helper module of one's own the gradients take a function from
    helper = {"_impl": "import torch\n\ndef scale(x):\n    return x\n" + COMPILED_COPY}
    reference = (ROOT / "reference" / "gradients.py").read_text()
    # a copy set from a function through `global`, or kept in a list, that the gradient does run: no name of the
    # module's top leads a reading to it
    set_globally = COMPILED_COPY.replace("fast_squared_error_loss = torch.compile(", "fast_squared_error_loss = None\n"
                                         "\n\ndef _setup():\n    global fast_squared_error_loss\n"
                                         "    fast_squared_error_loss = torch.compile(") + "\n_setup()\n"
    listed = COMPILED_COPY.replace("fast_squared_error_loss = torch.compile(", "_KEPT = []\n_KEPT.append(torch.compile(")
    listed = listed.replace('backend="eager")', 'backend="eager"))')
    run_globally = set_globally.replace("def squared_error_loss", "def squared_error_grad(x, w, target):\n"
                                        "    return fast_squared_error_loss(x, w, target) * x\n\n\ndef squared_error_loss")
    run_listed = listed.replace("def squared_error_loss", "def squared_error_grad(x, w, target):\n"
                                "    return _KEPT[0](x, w, target) * x\n\n\ndef squared_error_loss")
    decorated_gradient = "\n_by_hand = squared_error_grad\n\n\n@torch.compile\ndef squared_error_grad(x, w, target):\n" \
                         "    return _by_hand(x, w, target)\n"
    for kept, passes, others in ((COMPILED_COPY, True, {}), (COMPILED_COPY + compiled_gradient, False, {}),
                                 (called, False, {}), ("\nfrom ._impl import scale\n", True, helper),
                                 (run_globally, False, {}), (run_listed, False, {}),
                                 ("\nfrom . import _impl\n\n\ndef scale(x):\n    return _impl.scale(x)\n", True, helper),
                                 ("\n@torch.compile\ndef _fast(x):\n    return x\n", True, {}),
                                 (decorated_gradient, False, {})):
        class _Impl:
            @staticmethod
            def sources(kept=kept, others=others):
                gradients = reference.replace("return x * residual", "return scale(x * residual)") if others \
                    else reference
                return {"gradients": gradients + kept, "__init__": "", **others}

        class _Function:
            name = "gradients.squared_error_grad"

        try:
            no_autograd(_Impl, _Function, [])
        except BaseException as failure:  # the test's one-paragraph failure
            assert not passes and "compiles or traces code" in str(failure), failure
        else:
            assert passes, "a gradient function compiled passed the no-autograd test"


def test_weights_clamped_to_the_cut_are_told_a_clamp_not_trunc_normal_s_bounds(tmp_path):
    """A clamp leaves the std of the uncut normal, as trunc_normal_ given a and b in std's units does; only the
    latter leaves weights beyond 3 std, so only it is told about a and b."""
    for name, told, not_told in (("part08_clamped_normal", "(a clamp)", "absolute values"),
                                 ("part08_untruncated_normal", "as if nothing was cut", "(a clamp)")):
        folder = mutants.materialize(next(m for m in mutants.discover() if m.name == name), tmp_path / name)
        run = pytest("tests/test_part08_model.py", "-k", "test_linear_init_std", f"--submission={folder}")
        assert run.returncode == 1 and told in run.stdout and not_told not in run.stdout, run.stdout[-2000:]


def test_a_wrong_count_of_several_ops_says_each_op_s_count_alone(tmp_path):
    """A count that misses an overload (mm into out=) among five ops said only the total: the student had to
    find the op. Each op's count alone is said, so the one counted 0 shows."""
    name = "part04_default_overloads_only"
    folder = mutants.materialize(next(m for m in mutants.discover() if m.name == name), tmp_path / name)
    run = pytest("tests/test_part04_flops.py", "-k", "test_count_matmul_flops_forward", f"--submission={folder}")
    assert run.returncode == 1 and "yours for each op alone:" in run.stdout and "mm_out 0" in run.stdout, \
        run.stdout[-2000:]
    # backward: an out= op alone has no graph to run backward through, so it is counted forward (not "raised")
    run = pytest("tests/test_part04_flops.py", "-k", "test_count_matmul_flops_backward", f"--submission={folder}",
                 "--hypothesis-seed=0")
    assert run.returncode == 1 and "yours for each op alone:" in run.stdout and " raised " not in run.stdout, \
        run.stdout[-2000:]



def test_a_step_called_with_the_defaults_alone_says_so(tmp_path):
    """A wrong default (dtype float16) failed on a call that passed no dtype, but its inputs read
    "dtype=torch.bfloat16, device_type='cpu'", as if given: the student looked in the body, not the signature."""
    name = "part10_default_float16"
    folder = mutants.materialize(next(m for m in mutants.discover() if m.name == name), tmp_path / name)
    run = pytest("tests/test_part10_mixed_precision.py", "-k", "test_stepped_once_and_grads_cleared",
                 f"--submission={folder}")
    assert run.returncode == 1 and "by_default=True (the step was called as autocast_train_step(model, optimizer, " \
        "x, y), dtype, device_type and scaler left to your defaults" in run.stdout, run.stdout[-2000:]


def test_a_counter_kept_between_calls_is_told_so_not_blamed_on_an_op(tmp_path):
    """A counter made once and never reset returns every call's FLOPs so far: the breakdown of each op alone
    showed running totals ("conv1d 240", an op never counted), and sent the student to the wrong op."""
    name = "part04_counter_kept_between_calls"
    folder = mutants.materialize(next(m for m in mutants.discover() if m.name == name), tmp_path / name)
    run = pytest("tests/test_part04_flops.py", "-k", "count_matmul_flops", f"--submission={folder}")
    assert run.returncode == 1 and run.stdout.count("keeps a count between calls") == 2, run.stdout[-2000:]
    assert "yours for each op alone" not in run.stdout, run.stdout[-2000:]

WRAPPED_KV_CACHE = '''

import torch as _torch


def kv_cache_bytes(num_layers, batch, seq_len, num_kv_heads, head_dim, dtype):
    total = _torch.tensor(2, dtype=_torch.int32)  # (a product of int32 tensors stays int32; .prod() would not)
    for size in (num_layers, batch, seq_len, num_kv_heads, head_dim, _torch.empty((), dtype=dtype).element_size()):
        total = total * size
    return int(total)
'''


def test_a_count_that_wrapped_around_is_told_so_not_a_float_s_rounding(tmp_path):
    """A KV-cache count kept in an int32 tensor wraps past 2**31: the hidden test's message says it wrapped (off by
    a multiple of 2**32), where it said "the formula itself, which the public test shows at small sizes too"."""
    folder = submission(tmp_path / "wrapped", "memory", WRAPPED_KV_CACHE)
    run = pytest("tests/hidden/test_part03_memory_hidden.py", f"--submission={folder}",
                 "--hypothesis-profile=grading", "--hypothesis-seed=7")
    assert run.returncode == 1 and "the count wrapped around, as an int32 does" in run.stdout, run.stdout[-2000:]
    # and Part 4's FLOP counts alike: a numpy product wraps past 2**63, off by a multiple of 2**64 (said as int64,
    # not as the int32 every multiple of 2**64 would fit too)
    folder = mutants.materialize(mutants.load(ROOT / "selftest" / "hidden_bugs" / "part04_matmul_flops_int64.py"),
                                 tmp_path / "wrapped_flops")
    run = pytest("tests/hidden/test_part04_flops_hidden.py", f"--submission={folder}", "--hypothesis-seed=7")
    assert run.returncode == 1 and "the count wrapped around, as an int64 does" in run.stdout, run.stdout[-2000:]
