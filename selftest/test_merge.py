"""Staff check: merging runs of one submission does not depend on their order, and never loses a point by it.

A CPU pass has the cuda tests pending; a GPU pass (``-m cuda``) ran only them, every other test
"did not run" or absent. Whatever order they come in, to ``scoring.merge`` or to
``python -m grader merge``, the student gets both passes' points. Results are synthetic (built from
made-up outcomes, nothing graded), written with ``grader.outputs.write_student`` as a grading run does.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader import outputs, scoring
from grader import rubric as R
from grader.outcomes import FAILED, PASSED, PENDING, TestOutcome

ROOT = Path(__file__).resolve().parent.parent
RUBRIC = R.load()
CUDA = {i.test for i in RUBRIC.items if "cuda" in i.name}
ALL = {i.test for i in RUBRIC.items}
# what one run can say about one test; "absent": the run has no record of it at all
STATES = ("passed", "wrong", "raised", "harness error", "did not run", "pending", "absent")
VERDICTS = {"passed", "wrong", "raised"}


def outcome(test: str, state: str, message: str = "") -> TestOutcome:
    if state == "passed":
        return TestOutcome(test, PASSED)
    if state == "pending":
        return TestOutcome(test, PENDING, "pending", "needs a CUDA device")
    return TestOutcome(test, FAILED, state, message or f"{state} in {test}")


def run(student: str, states: dict[str, str], *, seconds: float = 1.0, error: str = "",
        notes: tuple[str, ...] = ()) -> scoring.SubmissionResult:
    """A run's result: tests in rubric order, "absent" ones left out (a run that never listed them)."""
    full = scoring.score(student, [outcome(t, s) for t, s in states.items() if s != "absent"], RUBRIC,
                         seconds=seconds, error=error, notes=notes)
    kept = tuple(t for t in full.tests if states.get(t.test, "absent") != "absent")
    return scoring.SubmissionResult(full.student, kept, full.seconds, full.error, full.output, full.notes)


def cpu_pass(student: str = "ada", failed: set[str] = frozenset()) -> scoring.SubmissionResult:
    return run(student, {t: "pending" if t in CUDA else "wrong" if t in failed else "passed" for t in ALL},
               seconds=60.0, notes=("cpu",))


def gpu_pass(student: str = "ada", others: str = "did not run") -> scoring.SubmissionResult:
    return run(student, {t: "passed" if t in CUDA else others for t in ALL}, seconds=30.0, notes=("gpu",))


def state_of(t: scoring.ScoredTest | None) -> str:
    if t is None:
        return "absent"
    return "passed" if t.status == PASSED else "pending" if t.status == PENDING else t.kind


# --------------------------------------------------------------------------- a CPU pass and a GPU pass
@pytest.mark.parametrize("others", ["did not run", "absent"])
def test_a_cpu_pass_and_a_gpu_pass_give_full_marks_in_either_order(others):
    cpu, gpu = cpu_pass(), gpu_pass(others=others)
    assert cpu.score == cpu.max_score == 100 - len(CUDA) and gpu.score == len(CUDA)
    one, other = scoring.merge(cpu, gpu), scoring.merge(gpu, cpu)
    assert one == other
    assert one.score == one.max_score == 100 and one.pending_points == 0
    assert [t.test for t in one.tests] == [i.test for i in RUBRIC.items]  # rubric order, whatever came first
    assert one.seconds == 90.0 and one.notes == ("cpu", "gpu")


def test_a_failure_in_the_cpu_pass_stays_a_failure_in_either_order():
    view = "test_part01_strides.py::test_view_strides"
    for merged in (scoring.merge(cpu_pass(failed={view}), gpu_pass()),
                   scoring.merge(gpu_pass(), cpu_pass(failed={view}))):
        tests = {t.test: t for t in merged.tests}
        assert tests[view].kind == "wrong" and merged.score == 96


def test_a_gpu_pass_that_stopped_before_a_cuda_test_counts_it_as_not_run():
    """The GPU pass was meant to run it: "did not run" is more than pending, and scores 0 either way round."""
    cuda = sorted(CUDA)[0]
    gpu = run("ada", {t: "passed" if t in CUDA - {cuda} else "did not run" for t in ALL}, error="worker crashed")
    for merged in (scoring.merge(cpu_pass(), gpu), scoring.merge(gpu, cpu_pass())):
        tests = {t.test: t for t in merged.tests}
        assert tests[cuda].kind == "did not run" and merged.pending_points == 0
        assert merged.error == ""  # the CPU pass got through: the submission can be graded


def test_a_harness_error_gives_way_to_a_verdict_from_another_run():
    view = "test_part01_strides.py::test_view_strides"
    broken = run("ada", {t: "harness error" if t == view else "passed" for t in ALL - CUDA})
    rerun = run("ada", {view: "wrong"})
    for merged in (scoring.merge(broken, rerun), scoring.merge(rerun, broken)):
        assert {t.test: t.kind for t in merged.tests}[view] == "wrong"


def test_a_run_with_a_harness_error_ends_with_a_warning_that_names_the_tests():
    """A GPU pass whose device broke scores every cuda test 0: the table alone reads as the students' fault."""
    cuda = sorted(CUDA)
    broken = [run(name, {t: "harness error" if t in CUDA else "passed" for t in ALL}) for name in ("ada", "bob")]
    note = outputs.harness_error_note(broken + [cpu_pass("cy")])
    assert note.startswith(f"WARNING: {len(cuda)} test(s) failed with a harness error")
    assert f"{cuda[0].rsplit('::', 1)[-1]} (2)" in note
    assert outputs.harness_error_note([cpu_pass("ada"), gpu_pass("bob")]) is None


def test_the_table_of_a_selected_run_shows_the_parts_it_left_out_as_such():
    """``grade -m part1``: the other parts scored 0 in the total (a test that never ran scores 0), and the table
    says they were not selected rather than showing them as zeros a student earned."""
    from grader.outcomes import NOT_SELECTED

    part1 = {t for t in ALL if "part01" in t}
    result = scoring.score("ada", [outcome(t, "passed") if t in part1 else
                                   TestOutcome(t, FAILED, "did not run", NOT_SELECTED) for t in ALL], RUBRIC,
                           seconds=1.0)
    table = outputs.table([result])
    row = next(line for line in table.splitlines() if line.startswith("ada"))
    assert row.split()[2:12] == ["12"] + ["-"] * 9, table
    assert "did not select" in table, table
    # a part that ran and scored 0 stays a 0
    failed = scoring.score("bob", [outcome(t, "wrong") for t in ALL if t not in CUDA], RUBRIC, seconds=1.0)
    assert "-" not in next(line for line in outputs.table([failed]).splitlines() if line.startswith("bob")).split()


def test_only_one_student_at_a_time():
    with pytest.raises(ValueError, match="different students"):
        scoring.merge(cpu_pass("ada"), gpu_pass("bob"))


# --------------------------------------------------------------------------- properties
runs_of_one_student = st.lists(
    st.builds(
        lambda states, seconds, error, notes: run("ada", states, seconds=seconds, error=error, notes=tuple(notes)),
        st.fixed_dictionaries({test: st.sampled_from(STATES) for test in sorted(ALL)}),
        st.floats(0, 1000, allow_nan=False).map(lambda x: round(x, 3)),
        st.sampled_from(["", "the worker crashed", "does not import"]),
        st.lists(st.sampled_from(["note a", "note b", "note c"]), max_size=2),
    ),
    min_size=2, max_size=3,
)


@settings(max_examples=150, deadline=None)
@given(runs_of_one_student)
def test_merge_does_not_depend_on_the_order_of_the_runs(runs):
    merged = {scoring.merge(*order) for order in itertools.permutations(runs)}
    assert len(merged) == 1


@settings(max_examples=150, deadline=None)
@given(runs_of_one_student)
def test_merge_keeps_the_most_telling_result_of_each_test(runs):
    merged = scoring.merge(*runs)
    got = {t.test: t for t in merged.tests}
    for test in ALL:
        seen = [t for r in runs for t in r.tests if t.test == test]
        if not seen:
            assert test not in got
            continue
        states = {state_of(t) for t in seen}
        kept = state_of(got[test])
        assert got[test].points == max(t.points for t in seen)  # no point lost, whatever the order
        if states & VERDICTS:
            assert kept in VERDICTS and (kept == "passed") == ("passed" in states)
        else:  # no verdict anywhere: a harness error says the most, then "did not run", then pending
            assert kept == next(s for s in ("harness error", "did not run", "pending") if s in states)
    assert bool(merged.error) == all(r.error for r in runs)
    assert merged.seconds == pytest.approx(sum(r.seconds for r in runs))
    assert set(merged.notes) >= {n for r in runs for n in r.notes}


# --------------------------------------------------------------------------- the command line
def merge_run(folders: list[Path], out: Path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", "merge", *map(str, folders), "--out", str(out), *options],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


def merge_cli(folders: list[Path], out: Path, *options: str) -> dict[str, str]:
    """``python -m grader merge FOLDERS --out OUT``; every file it wrote for a student and the CSV, by path."""
    done = merge_run(folders, out, *options)
    assert done.returncode == 0, done.stderr[-3000:]
    files = [*out.glob("*/grading.json"), *out.glob("*/results.json"), out / "grades.csv"]
    return {str(p.relative_to(out)): p.read_text() for p in files}


def test_the_merge_command_does_not_depend_on_the_order_of_its_folders(tmp_path):
    """A CPU pass in two shards and one GPU pass, given in every order: the same files, full marks."""
    folders = {name: tmp_path / name for name in ("cpu-1", "cpu-2", "gpu")}
    outputs.write_student(folders["cpu-1"], cpu_pass("ada"))
    outputs.write_student(folders["cpu-2"], cpu_pass("bob", failed={"test_part01_strides.py::test_view_strides"}))
    outputs.write_student(folders["cpu-2"], cpu_pass("cy"))  # graded on CPU only: cuda tests stay pending
    outputs.write_student(folders["gpu"], gpu_pass("ada"))
    outputs.write_student(folders["gpu"], gpu_pass("bob", others="absent"))

    written = [merge_cli([folders[n] for n in order], tmp_path / f"out-{k}")
               for k, order in enumerate([("gpu", "cpu-1", "cpu-2"), ("cpu-2", "gpu", "cpu-1")])]
    assert written[0] == written[1]
    scores = {r.student: r for r in outputs.read_results(tmp_path / "out-0")}
    assert scores["ada"].score == scores["ada"].max_score == 100
    assert scores["bob"].score == 96 and scores["bob"].pending_points == 0
    assert scores["cy"].score == scores["cy"].max_score == 100 - len(CUDA) and scores["cy"].pending_points
    assert (tmp_path / "out-0" / "report.html").exists()


def test_the_merge_command_with_two_folders_either_way_round(tmp_path):
    outputs.write_student(tmp_path / "A", cpu_pass("ada"))
    outputs.write_student(tmp_path / "B", gpu_pass("ada"))
    ab = merge_cli([tmp_path / "A", tmp_path / "B"], tmp_path / "X")
    ba = merge_cli([tmp_path / "B", tmp_path / "A"], tmp_path / "Y")
    assert ab == ba
    assert outputs.read_results(tmp_path / "X")[0].score == 100


def graded_under(folder: Path, seed: int, *results: scoring.SubmissionResult) -> Path:
    """A grading output as a batch writes it: each student's files and batch.json with the seed."""
    for result in results:
        outputs.write_student(folder, result)
    (folder / "batch.json").write_text(json.dumps({"seed": seed, "shard": None, "gpu": False}))
    return folder


def test_a_merged_report_keeps_each_batch_s_notes_once(tmp_path):
    """How workers were isolated, a warning of one batch: said once where every batch said it, and with the
    folder's name where only some did (the merged report dropped them all)."""
    for name, extra in (("cpu", "WARNING: the fork server could not preload: einops"), ("gpu", "a GPU was used")):
        graded_under(tmp_path / name, 7, (cpu_pass if name == "cpu" else gpu_pass)("ada"))
        info = json.loads((tmp_path / name / "batch.json").read_text())
        info["notes"] = ["workers ran in namespaces of their own", extra]
        (tmp_path / name / "batch.json").write_text(json.dumps(info))
    merge_cli([tmp_path / "cpu", tmp_path / "gpu"], tmp_path / "out")
    html = (tmp_path / "out" / "report.html").read_text()
    assert html.count("workers ran in namespaces of their own") == 1, html
    assert "cpu: WARNING: the fork server could not preload: einops" in html and "gpu: a GPU was used" in html
    assert "graded under another rubric.toml" not in html  # (none said which: the rubric of now, as far as it knows)
    info = json.loads((tmp_path / "gpu" / "batch.json").read_text())
    (tmp_path / "gpu" / "batch.json").write_text(json.dumps({**info, "rubric": "0" * 12}))
    merge_cli([tmp_path / "cpu", tmp_path / "gpu"], tmp_path / "again")
    assert "gpu was graded under another rubric.toml" in (tmp_path / "again" / "report.html").read_text()


def test_a_folder_that_holds_no_grading_output_is_an_error_not_nothing(tmp_path):
    graded_under(tmp_path / "cpu", 7, cpu_pass("ada"))
    done = merge_run([tmp_path / "cpu", tmp_path / "gpu-typo"], tmp_path / "out")
    assert done.returncode == 2 and "gpu-typo holds no grading output" in done.stderr, done.stderr
    assert not (tmp_path / "out").exists()


def test_a_test_graded_under_two_seeds_is_refused_unless_asked_for(tmp_path):
    """A failure one seed drew must not be hidden by another seed's pass; passes whose verdicts agree or do
    not overlap (a CPU pass and a GPU pass, each with a seed of its own) merge as before."""
    first = graded_under(tmp_path / "first", 7, cpu_pass("ada", failed={"test_part01_strides.py::test_view_strides"}))
    again = graded_under(tmp_path / "again", 8, cpu_pass("ada"))
    done = merge_run([first, again], tmp_path / "out")
    assert done.returncode == 2, done.stderr
    assert "ada's test_part01_strides.py::test_view_strides failed under seed 7" in done.stderr, done.stderr
    assert "passed under seed 8" in done.stderr, done.stderr
    assert "--mixed-seeds" in done.stderr
    merge_cli([first, again], tmp_path / "mixed", "--mixed-seeds")
    gpu = graded_under(tmp_path / "gpu", 9, gpu_pass("ada"))
    merge_cli([first, gpu], tmp_path / "cpu-and-gpu")
    assert outputs.read_results(tmp_path / "cpu-and-gpu")[0].score == 96
    # a merged output merges again under the same check: it keeps the one seed of its runs (it kept none)
    merged = tmp_path / "merged-7"
    merge_cli([first, graded_under(tmp_path / "gpu-7", 7, gpu_pass("ada"))], merged)
    assert json.loads((merged / "batch.json").read_text())["seed"] == 7
    done = merge_run([merged, again], tmp_path / "out-2")
    assert done.returncode == 2 and "failed under seed 7 (" in done.stderr, done.stderr


def test_the_merge_command_never_imports_torch(tmp_path):
    """A merge reads results and grades nothing: without torch's import (about 3 s) it takes half a second."""
    outputs.write_student(tmp_path / "A", cpu_pass("ada"))
    outputs.write_student(tmp_path / "B", gpu_pass("ada"))
    command = ["merge", str(tmp_path / "A"), str(tmp_path / "B"), "--out", str(tmp_path / "X")]
    code = (f"import sys\nfrom grader.cli import main\nassert main({command!r}) == 0\n"
            "assert 'torch' not in sys.modules, 'the merge imported torch'")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert outputs.read_results(tmp_path / "X")[0].score == 100
