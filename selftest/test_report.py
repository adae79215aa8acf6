"""Staff check: report.html says what students got wrong, escapes their text, and leaves pending tests alone.

The batches here are synthetic (like ``test_grader_outputs.synthetic``): results built from
made-up outcomes, nothing graded. Where Debian's ``chromium`` is installed, the page is also
opened in a headless browser: its DOM must hold no script from student text, and a
screenshot of it must not be blank (set REPORT_SCREENSHOT=FILE to keep that picture).
"""

from __future__ import annotations

import os
import random
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from grader import report, scoring
from grader import rubric as R
from grader.harness.parts import PARTS
from grader.outcomes import FAILED, PASSED, PENDING, TestOutcome

RUBRIC = R.load()
CUDA = {i.test for i in RUBRIC.items if "cuda" in i.name}
VIEW = "test_part01_strides.py::test_view_strides"
CONTIGUOUS = "test_part01_strides.py::test_is_contiguous"
BATCH = "test_part09_training.py::test_get_batch"
ATTENTION = "test_part06_named.py::test_attention_scores"
LINEAR = "test_part08_model.py::test_cruncher_forward"
EVIL = "<script>alert(1)</script>"


def failure(test: str, kind: str, problem: str, inputs: str = "", *extra: str) -> TestOutcome:
    """A failed outcome whose message reads like the harness's: header, problem, input, values."""
    item = RUBRIC.get(test)
    lines = [f"[{PARTS[item.part].label}] {item.name}", problem]
    lines += [f"  input:    {inputs}"] if inputs else []
    return TestOutcome(test, FAILED, kind, "\n".join(lines + list(extra)))


def wrong_view(shape: tuple, strides: tuple, new_shape: tuple) -> TestOutcome:
    return failure(VIEW, "wrong", "strides.view_strides: wrong value",
                   f"shape={shape}, strides={strides}, new_shape={new_shape}",
                   "  returned: (1,)", "  expected: None", "  (compared exactly)")


def result(student: str, failures: list[TestOutcome] = (), *, seconds: float = 1.0,
           error: str = "") -> scoring.SubmissionResult:
    """Every rubric test passed except ``failures``; cuda tests pending, as on a CPU machine."""
    failed = {f.test: f for f in failures}
    outcomes = [failed.get(i.test) or (TestOutcome(i.test, PENDING, "pending", "needs a CUDA device")
                                       if i.test in CUDA else TestOutcome(i.test, PASSED))
                for i in RUBRIC.items]
    return scoring.score(student, outcomes, RUBRIC, seconds=seconds, error=error)


def small_batch() -> list[scoring.SubmissionResult]:
    """view_strides: 4 students with one bug (different inputs), 2 stubs, 2 timeouts of different lengths."""
    return [
        result("s1", [wrong_view((2, 1, 3), (3, 99, 1), (6,))]),
        result("s2", [wrong_view((4, 1, 5, 2), (10, 77, 2, 1), (4, 10))]),
        result("s3", [wrong_view((2, 1, 3, 1), (3, 5, 1, 9), (6,))]),
        result("s4", [wrong_view((3, 1, 4), (4, 12, 1), (12,))]),
        result("s5", [failure(VIEW, "not implemented", "not implemented: strides.view_strides")]),
        result("s6", [failure(VIEW, "not implemented", "not implemented: strides.view_strides")]),
        result("s7", [failure(VIEW, "timed out", "timed out after 10 s in strides.view_strides", "shape=(2,)")]),
        result("s8", [failure(VIEW, "timed out", "timed out after 20 s in strides.view_strides", "shape=(2, 2)")]),
        result("s9"),
        result(f"eve{EVIL}", [failure(CONTIGUOUS, "raised", f"strides.is_contiguous raised ValueError: {EVIL}",
                                      f"shape=(2,), note={EVIL!r}")]),
    ]


def realistic_batch(n: int = 40, seed: int = 1) -> list[scoring.SubmissionResult]:
    """A class of ``n``: common bugs at common rates, stubs, timeouts, a broken upload, a hostile id."""
    rng = random.Random(seed)
    out = []
    for k in range(n):
        fails = []
        if rng.random() < 0.6:
            dims = rng.randint(2, 5)
            shape = tuple(rng.randint(1, 6) for _ in range(dims))
            strides = tuple(rng.randint(1, 120) for _ in range(dims))
            fails.append(wrong_view(shape, strides, (rng.randint(2, 90),)))
        if rng.random() < 0.25:
            fails.append(failure(CONTIGUOUS, "wrong", "strides.is_contiguous: wrong value",
                                 f"shape=({rng.randint(1, 9)}, 1), strides=(1, {rng.randint(1, 9)})",
                                 "  returned: False", "  expected: True"))
        if rng.random() < 0.2:
            fails.append(failure(BATCH, "timed out", f"timed out after {rng.choice([10, 20])} s in training.get_batch",
                                 f"dataset=<array of {rng.randint(100, 5000)} int64>, batch_size=4, context_length=8"))
        if rng.random() < 0.3:
            m, o = rng.randint(2, 64), rng.randint(2, 64)
            fails.append(failure(ATTENTION, "wrong",
                                 f"named.attention_scores: wrong value: {m} of {m * o} values differ; "
                                 f"worst at (0, {rng.randint(0, 3)}, 1): {rng.random():.6g} vs {rng.random():.6g}",
                                 f"q=<tensor float32 (2, {m}, 8)>, k=<tensor float32 (2, {o}, 8)>"))
        if rng.random() < 0.15:
            fails.append(failure(LINEAR, "raised", "model.Cruncher.forward raised RuntimeError: mat1 and mat2 "
                                 f"shapes cannot be multiplied ({rng.randint(2, 9)}x16 and 32x16)",
                                 "x=<tensor float32 (2, 16)>"))
        if rng.random() < 0.1:
            fails += [failure(i.test, "not implemented", f"not implemented: {PARTS[i.part].module}.{i.name[5:]}")
                      for i in RUBRIC.items if i.part == 10 and i.test not in CUDA]
        out.append(result(f"student{k:03d}", fails, seconds=round(rng.uniform(20, 90), 1)))
    out.append(result(f"eve{EVIL}", [failure(CONTIGUOUS, "raised", f"strides.is_contiguous raised ValueError: {EVIL}",
                                             f"shape=(2,), note={EVIL!r}")], seconds=33.0))
    broken = [TestOutcome(i.test, FAILED, "does not import", "does not import: strides\n  SyntaxError: invalid syntax")
              for i in RUBRIC.items if i.part == 1]
    out.append(scoring.score("mallory", broken, RUBRIC, seconds=4.0,
                             error="grading stopped early: the worker crashed (exit code -11)"))
    return out


def summary(results, test: str) -> report.TestSummary:
    return next(t for t in report.summarise(results, RUBRIC) if t.item.test == test)


def section(html: str, start: str, end: str) -> str:
    return html.split(start, 1)[1].split(end, 1)[0]


# --------------------------------------------------------------------------- grouping
def test_failures_group_by_bug_most_common_first_with_the_smallest_input():
    view = summary(small_batch(), VIEW)
    assert (view.passed, view.graded, view.failed) == (2, 10, 8)
    assert [(g.kind, g.count) for g in view.groups] == [("wrong", 4), ("not implemented", 2), ("timed out", 2)]
    wrong, stub, slow = view.groups
    assert wrong.students == ("s1", "s2", "s3", "s4")
    assert wrong.input == "shape=(2, 1, 3), strides=(3, 99, 1), new_shape=(6,)"  # the shortest of the four
    assert wrong.problem == "strides.view_strides: wrong value"
    assert "(2, 1, 3)" in wrong.example and "returned: (1,)" in wrong.example
    assert stub.input == "" and stub.problem == "not implemented: strides.view_strides"
    assert slow.input == "shape=(2,)" and slow.problem == "timed out after 10 s in strides.view_strides"


def test_the_key_of_a_failure_drops_values_but_keeps_names():
    key = report.failure_key
    assert key("wrong", "f: wrong value: 3 of 6 values differ; worst at (1, 2): 0.5 vs 0.25") \
        == key("wrong", "f: wrong value: 12 of 96 values differ; worst at (0, 1, 7): 1e-05 vs -3.5")
    assert key("wrong", "f: shape (2, 3) instead of (3, 2)") == key("wrong", "f: shape (4, 5, 6) instead of (1,)")
    assert key("wrong", "f: dtype torch.float32 instead of torch.bfloat16") \
        != key("wrong", "f: dtype torch.float16 instead of torch.bfloat16")
    assert key("raised", "f raised KeyError: 'a'") == key("raised", "f raised KeyError: 'b'")
    assert key("raised", "f raised RuntimeError: mat1 and mat2 shapes cannot be multiplied (6x16 and 32x16)") \
        == key("raised", "f raised RuntimeError: mat1 and mat2 shapes cannot be multiplied (9x16 and 32x8)")
    assert key("wrong", "f: wrong value") != key("raised", "f: wrong value")


def test_reading_a_failure_takes_time_in_proportion_to_its_text():
    """A submission writes its own exception names and messages. Read for the report in the batch's own
    process, a class name of 3,999 digits and a letter took half a second a failure (the number pattern
    tried each shorter run of digits against its lookahead), and 40,000 blank lines took five seconds to
    look for an input line in: 74 such failures held up the report by 16 seconds."""
    import time

    texts = ["9" * 3999 + "x", "1" * 3000 + ".5" + "2" * 3000 + "e", " \n" * 40000, "(1, " * 5000]
    began = time.process_time()
    for text in texts * 10:
        report.failure_key("raised", report.problem_line(text))
        report.input_line(text)
    assert time.process_time() - began < 2.0  # about 0.05 s; 51 s before


def test_the_problem_line_is_the_line_after_the_header_or_pytests_error_line():
    assert report.problem_line("[Part 1 (strides)] test_x\nnot implemented: strides.x\n  input:    a=1") \
        == "not implemented: strides.x"
    assert report.problem_line("test_x\nf: wrong value", "test_x") == "f: wrong value"
    assert report.problem_line("def test_x():\n>   assert f()\nE   AssertionError: nope\n") == "AssertionError: nope"
    assert report.input_line("h\np\n  input:    shape=(2,)\n  returned: 1") == "shape=(2,)"


def test_many_kinds_of_failure_show_the_most_common_and_sum_up_the_rest():
    results = [result(f"s{k}", [failure(VIEW, "raised", f"strides.view_strides raised Error{k % 7}Kind: x")])
               for k in range(30)]
    view = summary(results, VIEW)
    assert len(view.groups) == 7 and len(view.shown) == report.GROUPS_SHOWN
    assert sum(g.count for g in view.shown) + sum(g.count for g in view.rest) == 30
    html = report.render(results, RUBRIC)
    assert f"in {7 - report.GROUPS_SHOWN} other group(s) of failure" in html


def test_the_rest_is_summed_by_kind_not_listed_per_group():
    # groups of one kind differ only in the line that says what failed: "raised ×1, raised ×1" told nothing
    results = [result(f"s{k}", [failure(VIEW, "raised", f"strides.view_strides raised Error{k}Kind: x")])
               for k in range(report.GROUPS_SHOWN + 3)]
    results.append(result("late", [failure(VIEW, "wrong value", "strides.view_strides: wrong value")]))
    view = summary(results, VIEW)
    assert len(view.rest) == 4 and view.rest_by_kind == [("raised", 3), ("wrong value", 1)]
    html = report.render(results, RUBRIC)
    assert "in 4 other group(s) of failure:" in html and "raised ×3, wrong value ×1" in html


# --------------------------------------------------------------------------- pending
def test_pending_tests_are_not_failures_not_rated_and_never_flagged():
    results = small_batch()
    for t in report.summarise(results, RUBRIC):
        if t.item.test in CUDA:
            assert (t.graded, t.pending, t.rate, t.never_passed, t.groups) == (0, len(results), None, False, ())
    # a run that crashed never got to skip its cuda tests: "did not run" there does not make them failures to flag
    results.append(scoring.score("crashed", [], RUBRIC, seconds=1.0, error="the worker crashed"))
    for t in report.summarise(results, RUBRIC):
        if t.item.test in CUDA:
            assert (t.graded, t.ran, t.rate, t.never_passed, t.never_ran) == (1, 0, None, False, False)
    html = report.render(results, RUBRIC)
    flags = section(html, '<ul id="flags">', "</ul>")
    assert "passed by no submission" not in flags and "ran for no submission" not in flags
    assert not any(RUBRIC.get(t).name in flags for t in CUDA)
    # the submission itself is one to look at: its student may need telling (red team: "nothing unusual" was said)
    assert "1 submission(s) could not be graded fully" in flags and "<b>crashed</b> (the worker crashed)" in flags
    pending = section(html, 'id="pending"', "</p>")
    assert all(RUBRIC.get(t).name in pending for t in CUDA)
    assert "pending a GPU pass" in html


def test_a_test_nobody_passed_and_a_harness_error_are_flagged():
    results = [result(f"s{k}", [failure(VIEW, "wrong", "strides.view_strides: wrong value", "shape=(1,)")])
               for k in range(3)]
    results.append(result("s3", [failure(VIEW, "harness error", "error in test setup:"),
                                 failure(BATCH, "harness error", "error in test setup:")]))
    flags = section(report.render(results, RUBRIC), '<ul id="flags">', "</ul>")
    assert "test_view_strides</b>: passed by no submission" not in flags  # its harness error says more
    assert "test_view_strides</b>: a harness error for 1 submission" in flags
    assert "test_get_batch</b>: a harness error for 1 submission" in flags
    assert "nothing unusual" not in flags and "ran for no submission" not in flags


def test_a_batch_with_nothing_unusual_says_so_and_an_unreached_test_is_flagged():
    flags = section(report.render([result("ada"), result("bob")], RUBRIC), '<ul id="flags">', "</ul>")
    assert flags.count("<li>") == 1 and "nothing unusual" in flags
    unreached = [result("ada", [TestOutcome(BATCH, FAILED, "did not run", "this test did not run")])]
    flags = section(report.render(unreached, RUBRIC), '<ul id="flags">', "</ul>")
    assert "1 test(s) ran for no submission" in flags and "<b>P9 test_get_batch</b>" in flags
    assert "passed by no submission" not in flags


# --------------------------------------------------------------------------- escaping
def test_student_text_is_escaped_everywhere_it_is_shown(tmp_path):
    path = tmp_path / "report.html"
    report.write(small_batch(), RUBRIC, path, title=f"batch {EVIL}", notes=[f"note {EVIL}"])
    html = path.read_text(encoding="utf-8")
    assert "<script" not in html.lower()
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert html.count(escaped) >= 6  # title twice, note, id in the table and in the time plot, message
    plot = section(html, "Grading time per submission", "</svg>")
    assert f"eve{escaped}" in plot


# --------------------------------------------------------------------------- in a browser
def _chromium() -> str | None:
    return shutil.which("chromium") or (  # Debian's package; other browsers are not what this test checks
        "/usr/bin/chromium" if os.access("/usr/bin/chromium", os.X_OK) else None)


def _browser(binary: str, profile: Path, *args: str) -> subprocess.CompletedProcess:
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
             "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--hide-scrollbars", f"--user-data-dir={profile}"]
    return subprocess.run([binary, *flags, *args], capture_output=True, text=True, timeout=180)


def png_bands(data: bytes, bands: int = 8) -> tuple[int, int, list[int]]:
    """Width, height, and for each horizontal band of the picture how many byte values its pixel data holds.

    The data stays filtered (no imaging library here, and unfiltering in Python is slow), which is
    enough to tell ink from paper: a blank band of any one colour filters to a handful of values,
    text and plots to dozens.
    """
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        length, tag = struct.unpack(">I4s", data[pos:pos + 8])
        header = data[pos + 8:pos + 8 + length] if tag == b"IHDR" else header
        idat += data[pos + 8:pos + 8 + length] if tag == b"IDAT" else b""
        pos += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6), f"unexpected PNG format: depth {depth}, colour type {colour}"
    stride = width * (3 if colour == 2 else 4) + 1  # a filter-type byte starts each row
    raw = zlib.decompress(idat)
    rows = [raw[y * stride + 1:(y + 1) * stride] for y in range(height)]
    size = -(-height // bands)
    return width, height, [len(set(b"".join(rows[k:k + size]))) for k in range(0, height, size)]


@pytest.mark.skipif(_chromium() is None, reason="no chromium here (Debian: apt-get install chromium)")
def test_the_report_in_a_headless_browser(tmp_path):
    page = tmp_path / "report.html"
    report.write(realistic_batch(), RUBRIC, page, notes=["a synthetic batch of 40, nothing graded"])
    url = page.resolve().as_uri()

    dom = _browser(_chromium(), tmp_path / "profile-dom", "--dump-dom", url)
    assert dom.returncode == 0 and "</html>" in dom.stdout, dom.stderr[-2000:]
    assert not re.search(r"<script", dom.stdout, re.I), "student text became a script element"
    assert "alert(1)" in dom.stdout and "What went wrong, per test" in dom.stdout

    shot = tmp_path / "report.png"
    run = _browser(_chromium(), tmp_path / "profile-shot", f"--screenshot={shot}", "--window-size=1200,2400", url)
    assert shot.exists(), run.stderr[-2000:]
    width, height, bands = png_bands(shot.read_bytes())
    assert (width, height) == (1200, 2400)
    assert sum(values > 24 for values in bands) >= 6, f"the screenshot looks blank: byte values per band {bands}"
    if os.environ.get("REPORT_SCREENSHOT"):
        shutil.copy(shot, os.environ["REPORT_SCREENSHOT"])
