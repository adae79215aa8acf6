"""Staff check: hostile submissions gain nothing, harm nobody, and the grader survives.

One real batch (``python -m grader grade``, isolation on, Part 1 only) grades
every submission of ``selftest/hostile/`` next to an honest one. Each hostile
submission is the reference with one attack appended to ``strides.py``, so all
its other Part 1 answers are right: a test that fails below failed because the
attack was stopped, and the tests it did not touch must still pass.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from grader import mutants
from selftest.grading import grade, written

HOSTILE = Path(__file__).with_name("hostile")
PART1 = ["test_contiguous_strides", "test_flat_index", "test_is_contiguous", "test_transpose",
         "test_slice_view", "test_view_strides", "test_chained_views"]
ROOT_MODE = os.geteuid() == 0
UID_BASE = 62_000  # this batch's own worker ids: other batches running meanwhile use others


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    subs = tmp_path_factory.mktemp("subs")
    for path in sorted(HOSTILE.glob("part01_*.py")):
        mutants.materialize(mutants.load(path), subs / path.stem.removeprefix("part01_"))
    mutants.materialize_reference(subs / "honest")
    out = tmp_path_factory.mktemp("out")
    before = _worker_processes()
    run = grade(str(subs), "--out", str(out), "-j", "2", "-m", "part1", "--seed", "7", "--timeout-scale", "0.3",
                "--worker-uid-base", str(UID_BASE), timeout=600)
    return {"results": written(out), "gradescope": written(out, "results.json"), "out": out,
            "stdout": run.stdout, "leftover": _worker_processes() - before}


def _worker_processes() -> set[int]:
    """Processes of this batch's worker user ids, as seen from here."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                uid = os.stat(f"/proc/{entry}").st_uid
            except OSError:
                continue
            if UID_BASE <= uid < UID_BASE + 64:
                found.add(int(entry))
    return found


def outcome(graded, student: str, test: str) -> dict:
    for t in graded["results"][student]["tests"]:
        if t["test"].endswith("::" + test):
            return t
    raise KeyError(test)


def passed(graded, student: str) -> set[str]:
    return {t for t in PART1 if outcome(graded, student, t)["status"] == "passed"}


def test_the_batch_finished_and_wrote_everything(graded):
    students = {p.stem.removeprefix("part01_") for p in HOSTILE.glob("part01_*.py")} | {"honest"}
    assert set(graded["results"]) == students
    assert set(graded["gradescope"]) == students
    assert (graded["out"] / "grades.csv").exists() and (graded["out"] / "report.html").exists()


def test_the_honest_submission_is_untouched(graded):
    assert passed(graded, "honest") == set(PART1)
    assert graded["gradescope"]["honest"]["score"] == 12


@pytest.mark.parametrize("student, lost", [
    ("lying_eq", {"test_contiguous_strides", "test_view_strides", "test_transpose", "test_chained_views"}),
    ("reads_reference", {"test_view_strides", "test_chained_views"}),
    ("walks_stack", {"test_view_strides", "test_chained_views"}),
    ("patches_grader", set(PART1)),  # it breaks its own worker, nothing else
    ("sys_exit_in_call", {"test_view_strides", "test_chained_views", "test_transpose"}),
    ("writes_results", {"test_view_strides", "test_chained_views"}),
    ("pickle_payload", {"test_contiguous_strides", "test_view_strides", "test_chained_views"}),
    ("infinite_loop", {"test_view_strides", "test_chained_views"}),
    ("memory_bomb", {"test_view_strides", "test_chained_views"}),
    ("fork_storm", {"test_view_strides", "test_chained_views"}),
    ("stdout_flood", {"test_view_strides", "test_chained_views"}),
    ("segfault", {"test_view_strides", "test_chained_views"}),
    ("global_state", set()),
])
def test_an_attack_earns_nothing_and_costs_only_what_it_touched(graded, student, lost):
    if student == "reads_reference" and not ROOT_MODE:
        pytest.skip("not as root, a worker can read files its user can: the documented difference")
    assert passed(graded, student) == set(PART1) - lost


def test_lies_are_type_errors(graded):
    for test in ("test_contiguous_strides", "test_view_strides", "test_transpose"):
        assert "wrong type" in outcome(graded, "lying_eq", test)["message"]
    assert "tensor subclass" in outcome(graded, "lying_eq", "test_transpose")["message"]


def test_a_pickle_is_never_unpickled(graded):
    assert not Path("/tmp/pwned").exists()
    assert "wrong type" in outcome(graded, "pickle_payload", "test_view_strides")["message"]


def test_faults_are_named_plainly(graded):
    assert outcome(graded, "infinite_loop", "test_view_strides")["kind"] == "timed out"
    assert "timed out after 3 s in strides.view_strides" in outcome(graded, "infinite_loop", "test_view_strides")["message"]
    assert "SIGSEGV" in outcome(graded, "segfault", "test_view_strides")["message"]
    assert "more than 32 MB of output" in outcome(graded, "stdout_flood", "test_view_strides")["message"]
    assert "crashed" in outcome(graded, "sys_exit_in_call", "test_transpose")["kind"]
    assert "sys.exit" in outcome(graded, "sys_exit_in_call", "test_view_strides")["message"]


def test_a_submission_that_dies_at_import_scores_zero_with_the_reason(graded):
    assert passed(graded, "exits_at_import") == set()
    message = outcome(graded, "exits_at_import", "test_flat_index")["message"]
    assert "while importing the submission" in message


def test_results_files_cannot_be_forged(graded):
    forged = graded["gradescope"]["writes_results"]
    assert forged["tests"], "the grader's own results.json must stand"
    assert forged["score"] == 12 - 4 - 1  # view_strides (4) and chained_views (1) lost
    assert graded["gradescope"]["honest"]["score"] == 12


def test_no_worker_process_survives_the_batch(graded):
    assert graded["leftover"] == set()


@pytest.mark.skipif(not ROOT_MODE, reason="the privilege drop and namespaces need root")
def test_workers_ran_sandboxed(graded):
    notes = " ".join(graded["results"]["honest"]["notes"])
    assert "unprivileged user" in notes and "limit: memory" in notes
    assert "reads_reference" in graded["results"]  # and it got nothing (above)


def test_on_a_gpu_machine_memory_is_watched_instead_of_capped(tmp_path):
    """CUDA needs unlimited address space, so with a GPU the grader kills a worker by its RSS."""
    subs = tmp_path / "subs"
    mutants.materialize(mutants.load(HOSTILE / "part01_memory_bomb.py"), subs / "memory_bomb")
    mutants.materialize_reference(subs / "honest")
    out = tmp_path / "out"
    grade(str(subs), "--out", str(out), "-j", "1", "-m", "part1", "--seed", "7", "--watch-memory",
          "--memory-mb", "1024", timeout=600)
    bomb = written(out)["memory_bomb"]
    view = next(t for t in bomb["tests"] if t["test"].endswith("::test_view_strides"))
    assert view["status"] == "failed" and "more than 1024 MB of memory" in view["message"]
    honest = written(out)["honest"]
    assert all(t["status"] == "passed" for t in honest["tests"] if t["part"] == 1)
