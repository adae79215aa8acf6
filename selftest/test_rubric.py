"""Staff check: the rubric is the one place points live, and it matches the tests."""

import subprocess
import sys
from pathlib import Path

from grader import rubric as R
from grader.harness.parts import PARTS

ROOT = Path(__file__).resolve().parent.parent


def collected_tests(*options: str) -> set[str]:
    run = subprocess.run([sys.executable, "-m", "pytest", "tests", "--collect-only", "-q", "-p", "no:cacheprovider",
                          *options], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-2000:]
    return {R.test_id(line) for line in run.stdout.splitlines() if "::" in line}


def test_the_assignment_is_worth_100_split_50_50():
    rubric = R.load()
    assert rubric.total == R.TOTAL_POINTS == 100
    assert sum(rubric.part_total(n) for n in range(1, 6)) == 50
    assert sum(rubric.part_total(n) for n in range(6, 11)) == 50
    assert all(rubric.part_total(n) > 0 for n in PARTS)


def test_harder_functions_are_worth_more():
    rubric = R.load()
    points = {i.name: i.points for i in rubric.items}
    assert points["test_view_strides"] > points["test_contiguous_strides"]
    assert points["test_count_matmul_flops_forward"] + points["test_count_matmul_flops_backward"] > points["test_matmul_flops"]


def test_every_graded_test_has_points_and_every_entry_a_test():
    rubric = R.load()
    assert collected_tests() == {i.test for i in rubric.items}


def test_hidden_tests_live_under_tests_hidden():
    rubric = R.load()
    for item in rubric.items:
        assert item.hidden == item.test.startswith("hidden/")
        assert (ROOT / "tests" / item.test.split("::")[0]).exists()
    assert any(i.hidden for i in rubric.items)


def test_bad_rubrics_are_refused():
    import pytest

    with pytest.raises(ValueError, match="test_partNN_"):
        R.parse('[tests]\n"test_strides.py::test_x" = 1\n')
    with pytest.raises(ValueError, match="non-negative"):
        R.parse('[tests]\n"test_part01_strides.py::test_x" = -1\n')


def test_the_gpu_tests_are_the_ones_named_cuda():
    """The handout's README, the outputs and the self-tests count a test's points as pending a GPU by its
    name; the marker is what skips it."""
    rubric = R.load()
    collected = collected_tests("-m", "cuda")
    assert collected == {i.test for i in rubric.items if "cuda" in i.name}
    # and the reading of the marker a refused upload's pending tests are found by, as pytest collects it
    assert R.cuda_tests(Path(__file__).resolve().parent.parent / "tests") == collected


def test_the_timed_tests_are_those_that_time_a_product():
    """``-m timed`` (graded apart, on a machine where nothing else runs) selects each test whose verdict rests on
    a clock: those of time_matmul and measure_matmul_mfu, and no other."""
    timed = {i.test for i in R.load().items if "time_matmul" in i.name or "measure_matmul" in i.name}
    assert len(timed) == 3 and collected_tests("-m", "timed") == timed


def test_the_handouts_points_table_adds_up_to_the_rubric():
    """A student reads each part's points (public, on a GPU, hidden) from the handout's README: they are
    the rubric's, and they add up to the totals its text states."""
    import re

    from grader.handout import _readme

    readme, rubric = _readme(), R.load()
    rows = re.findall(r"^\| (\d+) \| `assignment/\w+\.py` \| [^|]+ \| (\d+)(?:, (\d+) of them on a GPU)?"
                      r"(?: \(\+(\d+) in hidden tests\))? \|$", readme, re.MULTILINE)
    assert [int(r[0]) for r in rows] == list(PARTS), readme
    for number, public, gpu, hidden in rows:
        items = [i for i in rubric.items if i.part == int(number)]
        assert int(public) == sum(i.points for i in items if not i.hidden)
        assert int(gpu or 0) == sum(i.points for i in items if "cuda" in i.name)
        assert int(hidden or 0) == sum(i.points for i in items if i.hidden)
    gpu = sum(int(r[2] or 0) for r in rows)
    assert f"worth {rubric.total:g} points" in readme and f"{gpu} points, need a CUDA GPU" in readme.replace("\n", " ")
    assert f"out of {rubric.total - gpu:g}" in readme.replace("\n", " ")


def test_a_rubric_off_the_plan_is_said_where_it_is_used():
    """One number changed by hand: grading, the handout and the Gradescope build say so (each prints
    ``warning()``) instead of carrying a 101-point assignment on unsaid."""
    import dataclasses

    rubric = R.load()
    assert rubric.departures() == [] and rubric.warning() == ""
    items = list(rubric.items)
    items[0] = dataclasses.replace(items[0], points=items[0].points + 1)
    assert R.Rubric(tuple(items)).departures() == [
        "its points add up to 101, not 100", "Parts 1-5 are worth 51 and Parts 6-10 50, not 50 each"]
    moved = [dataclasses.replace(i, points=0.0) if i.part == 10 else i for i in rubric.items]
    moved[0] = dataclasses.replace(moved[0], points=moved[0].points + rubric.part_total(10))
    assert R.Rubric(tuple(moved)).warning() == (
        "WARNING: the rubric (rubric.toml): Parts 1-5 are worth 60 and Parts 6-10 40, not 50 each; no points for Part 10")


def test_a_test_with_no_points_is_said_once_for_the_batch():
    from grader import scoring
    from grader.outcomes import TestOutcome

    rubric = R.load()
    new = "hidden/test_part01_strides_hidden.py::test_new_one"
    results = [scoring.score(s, [TestOutcome(new, "passed")], rubric, seconds=1.0) for s in ("ada", "bob")]
    assert scoring.unscored_tests(results) == [new]
    assert scoring.unscored_tests([scoring.score("cy", [], rubric, seconds=1.0)]) == []
