"""Staff check: the grader's outputs (Gradescope, CSV, report), merging, shards, zips, determinism."""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from grader import mutants, outputs, scoring
from grader import rubric as R
from grader.outcomes import NOT_SELECTED, TestOutcome
from grader.harness.impl import stage_submission
from grader.submissions import BadSubmission, Submission, expand, in_shard, parse_shard, stage
from selftest.grading import grade, recording, written

ROOT = Path(__file__).resolve().parent.parent
CUDA = {i.test for i in R.load().items if "cuda" in i.name}


def synthetic(student: str, passed: set[str], pending: set[str] = frozenset()) -> scoring.SubmissionResult:
    rubric = R.load()
    outs = [TestOutcome(i.test, "pending" if i.test in pending else "passed" if i.test in passed else "failed",
                        "pending" if i.test in pending else "" if i.test in passed else "wrong", "msg")
            for i in rubric.items]
    return scoring.score(student, outs, rubric, seconds=1.0)


# --------------------------------------------------------------------------- formats
def test_results_json_is_gradescopes_format():
    rubric = R.load()
    everything = {i.test for i in rubric.items}
    result = synthetic("ada", everything - {"test_part01_strides.py::test_view_strides"}, pending=CUDA)
    data = outputs.gradescope(result)
    assert set(data) >= {"score", "execution_time", "output", "tests"}
    assert data["score"] == 100 - 4 - sum(i.points for i in rubric.items if i.test in CUDA)
    for test in data["tests"]:
        assert set(test) >= {"name", "score", "max_score", "visibility"}
        assert test["visibility"] in ("visible", "after_published")
        assert test.get("status", "passed") in ("passed", "failed")
    hidden = [t for t in data["tests"] if "hidden" in t["tags"]]
    assert hidden and all(t["visibility"] == "after_published" for t in hidden)
    pending = [t for t in data["tests"] if "[pending" in t["name"]]
    assert len(pending) == len(CUDA) and all(t["max_score"] == 0 and "status" not in t for t in pending)
    assert "pending a GPU" in data["output"]
    assert sum(t["score"] for t in data["tests"]) == data["score"]


def test_what_the_code_printed_waits_for_the_hidden_tests_publication():
    """A worker sees the hidden tests' inputs and may print them: what it printed is shown to the student
    with the hidden tests, once grades are published, not at once in the visible output."""
    result = scoring.score("ada", [], R.load(), seconds=1.0, output="hidden input: (3, 4)\n")
    data = outputs.gradescope(result)
    assert "hidden input" not in data["output"] and "when grades are published" in data["output"]
    [printed] = [t for t in data["tests"] if t["name"].startswith("What your code printed")]
    assert printed["visibility"] == "after_published" and "hidden input: (3, 4)" in printed["output"]
    assert printed["max_score"] == printed["score"] == 0


def test_hidden_tests_run_after_every_public_test():
    """So that nothing a worker says after seeing a hidden test's inputs reaches a visible test's message."""
    run = subprocess.run([sys.executable, "-m", "pytest", "tests", "--impl", "reference", "--collect-only", "-q",
                          "-p", "no:cacheprovider"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    ids = [line for line in run.stdout.splitlines() if "::" in line]
    hidden = [i for i, test in enumerate(ids) if test.startswith("tests/hidden/")]
    assert hidden and min(hidden) == len(ids) - len(hidden), ids


def test_csv_has_a_row_per_student_and_a_column_per_part_and_test(tmp_path):
    rubric = R.load()
    results = [synthetic("ada", {i.test for i in rubric.items}), synthetic("bob", set(), pending=CUDA)]
    outputs.write_csv(results, rubric, tmp_path / "grades.csv")
    rows = list(csv.DictReader(open(tmp_path / "grades.csv")))
    assert [r["student"] for r in rows] == ["ada", "bob"]
    assert rows[0]["total"] == "100" and rows[1]["total"] == "0"
    assert all(f"part{n}" in rows[0] for n in range(1, 11))
    assert all(i.test in rows[0] for i in rubric.items)
    assert all(rows[1][t] == "pending" for t in CUDA)


def test_a_cell_the_run_s_selection_left_out_is_blank_not_a_failure(tmp_path):
    """A GPU pass (-m cuda) wrote 0 for every test it never ran: a cell could not tell "not run" from "failed"
    (red team, staff)."""
    rubric = R.load()
    ran = [TestOutcome(i.test, "passed", "", "") if i.test in CUDA else
           TestOutcome(i.test, "failed", "did not run", NOT_SELECTED) for i in rubric.items]
    gpu = scoring.score("ada", ran, rubric, seconds=1.0)
    outputs.write_csv([gpu], rubric, tmp_path / "grades.csv")
    [row] = list(csv.DictReader(open(tmp_path / "grades.csv")))
    assert all(row[t] == "1" for t in CUDA) and row["part3"] == "1" and row["part1"] == ""
    assert {row[i.test] for i in rubric.items if i.test not in CUDA} == {""}


def test_each_row_names_the_upload_its_id_was_made_of(tmp_path):
    """An id of a name of other letters (李雷 -> unnamed-3a4732), or of one two uploads share, carries a hash: the
    upload's own name is kept, in grading.json, through a merge, and in grades.csv (red team, staff)."""
    rubric = R.load()
    result = scoring.score("unnamed-3a4732", [], rubric, seconds=1.0, upload="李雷.zip")
    assert scoring.SubmissionResult.from_dict(result.to_dict()).upload == "李雷.zip"
    assert scoring.merge(result, scoring.score("unnamed-3a4732", [], rubric, seconds=1.0)).upload == "李雷.zip"
    outputs.write_csv([result], rubric, tmp_path / "grades.csv")
    [row] = list(csv.DictReader(open(tmp_path / "grades.csv", encoding="utf-8")))
    assert row["student"] == "unnamed-3a4732" and row["upload"] == "李雷.zip"


def test_a_score_never_counts_a_test_that_did_not_run():
    rubric = R.load()
    result = scoring.score("x", [], rubric, seconds=0.0)
    assert result.score == 0 and result.max_score == 100
    assert all(t.kind == "did not run" for t in result.tests)


# --------------------------------------------------------------------------- merge
def test_a_gpu_pass_fills_in_the_pending_tests(tmp_path):
    rubric = R.load()
    cpu_passed = {i.test for i in rubric.items} - CUDA
    cpu = synthetic("ada", cpu_passed, pending=CUDA)
    gpu = synthetic("ada", CUDA)  # a GPU pass that ran only the cuda tests, all passed
    assert cpu.score == 100 - len(CUDA) and cpu.max_score == cpu.score
    merged = scoring.merge(cpu, gpu)
    assert merged.score == merged.max_score == 100 and merged.pending_points == 0

    for name, result in (("cpu", cpu), ("gpu", gpu)):
        outputs.write_student(tmp_path / name, result)
    run = subprocess.run([sys.executable, "-m", "grader", "merge", str(tmp_path / "cpu"), str(tmp_path / "gpu"),
                          "--out", str(tmp_path / "all")], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert json.loads((tmp_path / "all" / "ada" / "results.json").read_text())["score"] == 100


def test_shards_split_a_batch_exactly_once_and_stably():
    ids = [f"student{i:04d}" for i in range(997)]
    shards = [[s for s in ids if in_shard(s, (k, 4))] for k in range(1, 5)]
    assert sorted(sum(shards, [])) == ids
    assert all(150 < len(s) < 350 for s in shards)
    assert [s for s in ids if in_shard(s, (2, 4))] == shards[1]  # same answer every time
    with pytest.raises(ValueError):
        parse_shard("5/4")


# --------------------------------------------------------------------------- submissions
def test_zip_submissions_unpack_safely(tmp_path):
    package = mutants.materialize_reference(tmp_path / "alice")
    archive = tmp_path / "batch" / "alice.zip"
    archive.parent.mkdir()
    with zipfile.ZipFile(archive, "w") as zf:
        for path in (package / "assignment").glob("*.py"):
            zf.write(path, f"alice-work/assignment/{path.name}")  # wrapped in a folder
    subs = expand([archive.parent])
    assert [s.student for s in subs] == ["alice"]
    staged, _ = stage(subs[0], tmp_path / "staged")
    assert (staged / "assignment" / "strides.py").exists()

    evil = tmp_path / "evil.zip"
    with zipfile.ZipFile(evil, "w") as zf:
        zf.writestr("../../escaped.py", "x = 1")
    with pytest.raises(BadSubmission, match="outside"):
        stage(Submission("evil", evil), tmp_path / "staged2")
    assert not (tmp_path / "escaped.py").exists()

    clash = tmp_path / "clash.zip"  # a file and a folder of one name: refused with a reason, not a crash
    with zipfile.ZipFile(clash, "w") as zf:
        zf.writestr("assignment/strides.py", "x = 1")
        zf.writestr("assignment/strides.py/x", "y = 2")
    with pytest.raises(BadSubmission, match="cannot be unpacked"):
        stage(Submission("clash", clash), tmp_path / "staged3")


def test_names_that_make_one_id_are_graded_apart(tmp_path):
    """One student's choice of folder name must not stop the batch: each gets the id and a short hash of
    its own name, the same on every run."""
    batch = tmp_path / "batch"
    for name in ("alice smith", "alice_smith", "bob"):
        mutants.materialize_reference(batch / name)
    (batch / "bob.zip").write_bytes(b"")
    ids = [s.student for s in expand([batch])]
    assert len(set(ids)) == 4 and ids == [s.student for s in expand([batch])], ids
    assert sorted(i.rsplit("-", 1)[0] for i in ids) == ["alice_smith", "alice_smith", "bob", "bob"]


def test_a_name_made_to_clash_or_too_long_is_still_graded(tmp_path):
    """A folder named like another's id and hash (``alice_smith-`` and the hash of ``alice smith``) once
    stopped the whole batch, and a name of 252 characters or more made a log file name the system refused
    (the grading process failed, an honest submission scored 0): every such name gets an id of its own,
    short enough for a file name, the same on every run."""
    from grader.submissions import MAX_ID
    batch = tmp_path / "batch"
    plain = [s.student for s in expand([_two_alices(batch)])]
    for name in (*plain, "y" * 255, "y" * 254):
        mutants.materialize_reference(batch / name)
    ids = [s.student for s in expand([batch])]
    assert len(set(ids)) == len(ids) == 6 and ids == [s.student for s in expand([batch])], ids
    assert max(map(len, ids)) <= MAX_ID + 14, ids


def _two_alices(batch: Path) -> Path:
    for name in ("alice smith", "alice_smith"):
        mutants.materialize_reference(batch / name)
    return batch


@pytest.mark.parametrize("args, said", [
    (["-j", "0"], "grading needs at least one process"),  # once a batch that waited forever
    (["--seed-file", "{tmp}/none"], "--seed-file {tmp}/none: No such file or directory"),
    (["--seed-file", "{tmp}/secret"], "its first word is not an integer"),
    (["--seed-file", "{tmp}/blank"], "its first word is not an integer"),
    (["--seed", "1", "--seed-file", "{tmp}/seed"], "not allowed with argument --seed"),
    (["--out", "{tmp}/seed"], "is a file: name a folder for the results"),
])
def test_a_mistake_in_the_command_is_one_line_and_never_shows_the_seed(tmp_path, capsys, args, said):
    """A TA's slip (-j 0, a seed file missing, empty or not a number, a file for --out) was a traceback, or a
    batch that never started; a seed file's text was echoed into the logs (red team, staff)."""
    from grader.cli import main

    (tmp_path / "batch" / "ada").mkdir(parents=True)
    (tmp_path / "secret").write_text("my-secret-seed\n")
    (tmp_path / "blank").write_text("\n")
    (tmp_path / "seed").write_text("7\n")
    given = ["grade", str(tmp_path / "batch"), "--out", str(tmp_path / "out"), "--no-isolate", "--quiet"]
    try:
        status = main(given + [a.format(tmp=tmp_path) for a in args])
    except SystemExit as exc:  # argparse's own usage errors
        status = exc.code
    err = capsys.readouterr().err
    assert status == 2 and said.format(tmp=tmp_path) in err, err
    assert "Traceback" not in err and "my-secret-seed" not in err and not (tmp_path / "out").exists(), err


def test_the_slurm_script_gives_every_shard_the_recording_it_is_given(tmp_path):
    """The README says to record once and give every shard the recording; the script took no recording, and each
    array task recorded again (red team, staff)."""
    fake = tmp_path / ".venv" / "bin" / "python"
    fake.parent.mkdir(parents=True)
    fake.write_text('#!/bin/sh\necho "$@"\n')
    fake.chmod(0o755)
    env = {"PATH": os.environ["PATH"], "SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3",
           "SLURM_SUBMIT_DIR": str(tmp_path)}
    script = str(ROOT / "grader" / "slurm" / "grade_array.sbatch")
    ran = [subprocess.run(["bash", script, "subs", "out", "seed", *extra], env=env, capture_output=True, text=True,
                          check=True).stdout.split() for extra in ([], ["rec"])]
    assert ran[0][:6] == ["-m", "grader", "grade", "subs", "--out", "out/shard-2"] and "--recording" not in ran[0]
    assert ran[1][ran[1].index("--recording") + 1] == "rec" and ran[1][ran[1].index("--shard") + 1] == "2/3"


def test_a_batch_whose_grader_files_change_stops_and_scores_no_one_0(tmp_path, monkeypatch):
    """A pull of the grader during a batch: every grading process started after it refused the batch's recording
    (the tests had changed), and 57 of 58 students got 0/100 results to upload (red team). The batch stops at the
    change: what was graded before stands, the rest have no result, and the error says so."""
    from grader import batch as batch_mod
    from grader.session import Options

    asked = []

    def changed(self) -> str:  # the files change once the first submission is graded
        asked.append(1)
        return "" if len(asked) < 2 else "tests/test_part01_strides.py changed"

    monkeypatch.setattr(batch_mod.Batch, "changed", changed)
    subs = []
    for name in ("ada", "bo", "cy"):
        (tmp_path / name).mkdir()
        subs.append(Submission(name, tmp_path / name))
    with pytest.raises(batch_mod.FilesChanged) as stopped:
        batch_mod.grade_all(subs, Options(seed=1, isolate=False), jobs=1, progress=False, replay=False)
    assert [r.student for r in stopped.value.graded] == ["ada"] and stopped.value.not_graded == ["bo", "cy"]
    assert stopped.value.changed == "tests/test_part01_strides.py changed"


def test_an_output_folder_is_never_a_student_and_never_another_batch_s(tmp_path):
    """--out inside the batch folder was graded as a student on the next run; a batch graded into the folder of
    another (a regrade of one student into the class's folder) left the class's grades.csv with one row."""
    from grader.cli import UsageError, _out_folder

    batch = tmp_path / "batch"
    for name in ("ada", "bo"):
        (batch / name).mkdir(parents=True)
    assert [s.student for s in expand([batch], leave_out=batch / "grades" / "run1")] == ["ada", "bo"]
    (batch / "grades" / "run1").mkdir(parents=True)
    assert [s.student for s in expand([batch], leave_out=batch / "grades" / "run1")] == ["ada", "bo"]
    assert [s.student for s in expand([batch])] == ["ada", "bo", "grades"]
    out = tmp_path / "out"
    for result in (synthetic("ada", set()), synthetic("bo", set())):
        outputs.write_student(out, result)
    (out / "batch.json").write_text("{}")
    _out_folder(out, ["ada", "bo"])  # the same batch again: its own folder
    with pytest.raises(UsageError, match=r"holds the results of another batch \(1 student\(s\) not in this one: bo\)"):
        _out_folder(out, ["ada"])


def test_flat_files_and_packages_are_both_submissions(tmp_path):
    flat = tmp_path / "flat"
    flat.mkdir()
    shutil.copy(ROOT / "reference" / "strides.py", flat / "strides.py")
    packaged = mutants.materialize_reference(tmp_path / "packaged")
    assert [s.student for s in expand([flat, packaged])] == ["flat", "packaged"]
    assert (stage(Submission("flat", flat), tmp_path / "s")[0] / "assignment" / "strides.py").exists()


def test_of_two_copies_of_the_code_the_one_written_is_graded_and_the_student_told(tmp_path):
    """An upload with the handout's stubs left in assignment/ beside the work's loose files (or the reverse) once
    scored 0, graded on the stubs without a word; and a stray loose file beside a whole assignment/, an empty
    assignment/, or stubs kept as comments must not win either (red team): each module is taken from the copy
    with fewer `raise NotImplementedError` statements, on a tie from the folder holding more modules, and
    results.json says so."""
    reference, stubs = ROOT / "reference", ROOT / "assignment"
    names = sorted(p.name for p in reference.glob("*.py") if p.name != "__init__.py")

    def upload(name: str, inner: dict[str, str], loose: dict[str, str]) -> tuple[Path, str]:
        folder = tmp_path / name
        (folder / "assignment").mkdir(parents=True)
        for where, files in ((folder / "assignment", inner), (folder, loose)):
            for module, text in files.items():
                (where / module).write_text(text)
        return stage(Submission(name, folder), tmp_path / f"s-{name}")

    work = {n: (reference / n).read_text() for n in names}
    stub = {n: (stubs / n).read_text() for n in names}
    commented = {n: t + "\n# raise NotImplementedError  (done)\nNOTE = 'raise NotImplementedError'\n"
                 for n, t in work.items()}
    old_strides = {"strides.py": work["strides.py"] + "\n# an older copy\n"}
    branched = {**work, **{n: work[n] + "\n\ndef later(kind):\n    if kind:\n        raise NotImplementedError(kind)"
                           "\n    return 0\n" for n in ("strides.py", "dtypes.py")}}
    helped = {**work, "named.py": work["named.py"] + "\nfrom .helpers import double  # noqa: E402\n"}
    for name, inner, loose, graded in (
            ("loose_work", stub, work, work),
            ("folder_work", work, stub, work),
            ("twice", work, work, work),
            ("stray_loose_file", work, {"strides.py": "x = 1\n"}, work),
            ("stray_empty_model", work, {"model.py": ""}, work),
            ("one_left_behind", old_strides, work, work),
            ("stubs_as_comments", stub, commented, commented),
            ("half_and_half", {**stub, **{n: work[n] for n in names[:5]}}, {n: work[n] for n in names[5:]}, work),
            # a finished function that raises NotImplementedError in a branch is no stub: an empty file, or a
            # draft that does not parse, does not win over it
            ("branch_raise", branched, {"strides.py": "", "dtypes.py": "def broken(:\n"}, branched),
            # a helper module that one copy alone holds is staged with the modules taken from it
            ("helper_alone", {**work, "named.py": stub["named.py"]},
             {"named.py": helped["named.py"], "helpers.py": "def double(x):\n    return 2 * x\n"},
             {**helped, "helpers.py": "def double(x):\n    return 2 * x\n"})):
        staged, said = upload(name, inner, loose)
        for module, text in graded.items():
            assert (staged / "assignment" / module).read_text() == text, (name, module)
        assert said.startswith("the submission holds module files both loose and in an assignment/ folder"), said
    shown = outputs.gradescope(scoring.score("x", [], R.load(), seconds=1.0, notes=[f"{scoring.UPLOAD}: {said}"]))
    assert "Note: the submission holds module files both" in shown["output"], shown["output"]
    staged, said = upload("empty_folder", {"__init__.py": ""}, work)  # an assignment/ with none of the modules
    assert said == "" and (staged / "assignment" / "strides.py").read_text() == work["strides.py"]
    alone = mutants.materialize_reference(tmp_path / "alone")
    assert stage(Submission("alone", alone), tmp_path / "s-alone")[1] == ""  # no choice made, nothing said


def test_an_export_s_odd_shapes_are_each_graded_or_said(tmp_path):
    """A class export (red team, staff): a student folder with two whole copies (draft/ and final/) was graded on
    the first by name, silently; assignment/assignment/ (a zipped folder unpacked into one of its name) scored 0;
    Frank.ZIP and carol.tar.gz vanished from every output. The copy with more modules and fewer stubs is graded and
    the choice said; code is found where it lies; an upper-case .ZIP is a zip; any other file is said."""
    reference, stubs = ROOT / "reference", ROOT / "assignment"
    batch = tmp_path / "export"
    for name, version in (("draft", stubs), ("final", reference)):
        shutil.copytree(version, batch / "two_copies" / name / "assignment")
    shutil.copytree(reference, batch / "nested" / "assignment" / "assignment")
    with zipfile.ZipFile(batch / "Frank.ZIP", "w") as zf:
        for path in reference.glob("*.py"):
            zf.write(path, f"frank/{path.name}")
    (batch / "carol.tar.gz").write_bytes(b"\x1f\x8b")
    skipped: list[str] = []
    subs = {s.student: s for s in expand([batch], skipped)}
    assert sorted(subs) == ["Frank", "nested", "two_copies"] and skipped == ["carol.tar.gz"], (sorted(subs), skipped)
    written = (reference / "strides.py").read_text()
    for student in subs:
        staged, said = stage(subs[student], tmp_path / f"s-{student}")
        assert (staged / "assignment" / "strides.py").read_text() == written, student
    assert "graded final/ " in stage(subs["two_copies"], tmp_path / "again")[1]


def test_of_two_copies_as_written_the_one_changed_last_is_graded_and_staff_are_told(tmp_path):
    """old/ and new/, as written as each other: the last by name (old/, a bug in it) was graded, and only the
    student's results.json said there had been a choice; renamed and merged ids were said nowhere (red team,
    staff)."""
    from grader.cli import staff_notes_on_uploads
    from grader.scoring import UPLOAD

    batch = tmp_path / "batch"
    for name in ("new", "old"):
        shutil.copytree(ROOT / "reference", batch / "xena" / name / "assignment")
    for path in (batch / "xena" / "old").rglob("*.py"):
        os.utime(path, (1_000_000_000, 1_000_000_000))
    shutil.copytree(ROOT / "reference", batch / "José Núñez")
    shutil.copytree(ROOT / "reference", batch / "alice")
    with zipfile.ZipFile(batch / "alice.zip", "w") as zf:
        zf.writestr("strides.py", "x = 1")
    with zipfile.ZipFile(batch / "yan.zip", "w") as zf:  # a zip's entries keep their dates when unpacked
        for name, year in (("new", 2020), ("old", 2001)):
            for path in (ROOT / "reference").glob("*.py"):
                zf.writestr(zipfile.ZipInfo(f"{name}/{path.name}", date_time=(year, 1, 1, 0, 0, 0)), path.read_text())
    subs = {s.student: s for s in expand([batch])}
    for student in ("xena", "yan"):
        said = stage(subs[student], tmp_path / student)[1]
        assert "graded new/ " in said and "then the files changed last" in said, said
    results = [scoring.score(i, [], R.load(), seconds=1.0, notes=[f"{UPLOAD}: {said}"] if i == "yan" else [])
               for i in subs]
    renamed, several = staff_notes_on_uploads(list(subs.values()), results)
    assert renamed.startswith("3 upload(s) graded under an id other than their name") and "José Núñez as Jos_N_ez" \
        in renamed and "alice.zip as alice-" in renamed, renamed
    assert several.startswith("1 upload(s) held several copies") and several.endswith(": yan"), several


def test_an_upload_of_the_wrong_files_is_told_which_files_are_graded(tmp_path):
    """"none of the module files" named neither the files looked for nor what was there (a notebook, a report,
    Strides.py): said in each of the 77 tests, with nothing to go on (red team, staff)."""
    for name, files in (("heidi", ["report.pdf", "work/assignment.ipynb"]), ("tom", ["Strides.py"])):
        for file in files:
            (tmp_path / name / file).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name / file).write_text("")
    (tmp_path / "tom" / "link.py").symlink_to("/etc/hostname")
    with pytest.raises(BadSubmission) as heidi:
        stage(Submission("heidi", tmp_path / "heidi"), tmp_path / "s1")
    with pytest.raises(BadSubmission) as tom:
        stage(Submission("tom", tmp_path / "tom"), tmp_path / "s2")
    assert "Graded are strides.py, dtypes.py," in str(heidi.value) and "report.pdf, work/assignment.ipynb" in \
        str(heidi.value) and "a notebook is not graded" in str(heidi.value), heidi.value
    assert "it holds Strides.py; Strides.py: name each file in lower case" in str(tom.value), tom.value
    assert "link.py" not in str(tom.value)  # (a link is never followed, nor named)


EXPORT_METADATA = """---
:submission_101:
  :submitters:
  - :name: José Núñez
    :sid: '12345'
    :email: jose@example.edu
  - :name: Ada
    :sid: '777'
    :email: ada@example.edu
  :created_at: 2026-12-01 10:00:00.000000000 -08:00
  :score: 96.0
:submission_102:
  :submitters:
  - :name: Bo
    :email: bo@example.edu
"""


def test_a_gradescope_export_s_rows_say_who_made_each_submission(tmp_path):
    """The README's GPU plan grades an export of Gradescope's submissions: its rows were submission_101, ... with
    no name or student id to enter the scores by, its metadata was said "not graded", and the export's zip given
    whole was graded as one student, of one folder's code (red team, staff)."""
    from grader.submissions import export_submitters

    export = tmp_path / "export"
    for name in ("submission_101", "submission_102"):
        shutil.copytree(ROOT / "reference", export / name)
    (export / "submission_metadata.yml").write_text(EXPORT_METADATA)
    skipped: list[str] = []
    subs = expand([export], skipped)
    assert [s.student for s in subs] == ["submission_101", "submission_102"] and skipped == []
    submitters = export_submitters([export])
    assert submitters == {"submission_101": "José Núñez <12345, jose@example.edu>; Ada <777, ada@example.edu>",
                          "submission_102": "Bo <bo@example.edu>"}
    rubric = R.load()
    outputs.write_csv([synthetic("submission_101", set())], rubric, tmp_path / "grades.csv", submitters)
    [row] = list(csv.DictReader(open(tmp_path / "grades.csv", encoding="utf-8")))
    assert row["submitters"].startswith("José Núñez <12345")
    shutil.make_archive(str(tmp_path / "gs_export"), "zip", export)
    with pytest.raises(BadSubmission, match="is a Gradescope export of several submissions"):
        expand([tmp_path / "gs_export.zip"])


def test_an_upload_with_a_zip_inside_says_so(tmp_path):
    folder = tmp_path / "zipped"
    folder.mkdir()
    with zipfile.ZipFile(folder / "my_work.zip", "w") as zf:
        zf.writestr("assignment/strides.py", "x = 1")
    with pytest.raises(BadSubmission, match="it holds my_work.zip"):
        stage(Submission("zipped", folder), tmp_path / "s")


def test_links_in_a_submission_are_never_followed(tmp_path):
    """The grader runs as root: a link (or a hard link) to the staff's files must not bring them in."""
    own = mutants.materialize_reference(tmp_path / "elsewhere") / "assignment"
    linked = tmp_path / "batch" / "linked"
    linked.mkdir(parents=True)
    (linked / "assignment").symlink_to(own, target_is_directory=True)
    (tmp_path / "batch" / "entry").symlink_to(own.parent, target_is_directory=True)
    files = tmp_path / "batch" / "files" / "assignment"
    files.mkdir(parents=True)
    (files / "strides.py").symlink_to(own / "strides.py")
    os.link(own / "dtypes.py", files / "dtypes.py")
    (files / "memory.py").write_text("x = 1\n")  # its own: staged
    subs = {s.student: s for s in expand([tmp_path / "batch"])}
    with pytest.raises(BadSubmission, match="none of the module files"):
        stage(subs["linked"], tmp_path / "s1")
    with pytest.raises(BadSubmission, match="symbolic link"):
        stage(subs["entry"], tmp_path / "s2")
    staged = stage(subs["files"], tmp_path / "s3")[0] / "assignment"
    assert sorted(p.name for p in staged.iterdir()) == ["__init__.py", "dtypes.py", "memory.py", "strides.py"]
    for name, link in (("strides.py", "a symbolic link"), ("dtypes.py", "hard-linked to another file")):
        # in the link's place, nothing of what it points at: a module that says what it was when imported
        said = f"{name} is not graded: it is {link}, and the grader follows no link; put the file itself in the " \
            "submission"
        assert (staged / name).read_text() == f"raise ImportError({said!r})\n"
    # named on the command line, a link is the staff's own choice: followed
    entry, _ = stage(Submission("entry", tmp_path / "batch" / "entry"), tmp_path / "s4")
    assert (entry / "assignment" / "strides.py").exists()


def test_more_code_than_a_student_writes_is_not_graded(tmp_path):
    """Every module is read (parsed) by the grading process, as root: a module of hundreds of kilobytes is
    staged as a refusal that says so when imported (that module's parts score 0, not the whole submission:
    it zeroed all ten parts, out of 100), and a folder of hundreds of modules is refused at staging with a
    reason, not read for minutes."""
    from grader.harness.impl import Implementation

    large = mutants.materialize_reference(tmp_path / "large") / "assignment"
    (large / "roofline.py").write_text((large / "roofline.py").read_text() + "# x = 1\n" * 40_000)
    staged = Implementation("assignment", stage(Submission("large", large.parent), tmp_path / "s1")[0])
    assert staged.load_finding("roofline.time_matmul", "import") == \
        "roofline.py is not graded: it is 317 KB; a module may be at most 256 KB"
    assert staged.source("strides") == (large / "strides.py").read_text()  # the others are graded as ever
    # imported, it says so with no "(line 1)": a line of the stand-in, none of the student's file
    importing = ("import sys\nfrom pathlib import Path\nfrom grader.harness.impl import Implementation, LoadError\n"
                 "try:\n    Implementation('assignment', Path(sys.argv[1])).module('roofline')\n"
                 "except LoadError as e:\n    print(e.detail)")
    run = subprocess.run([sys.executable, "-c", importing, str(staged.package_dir.parent)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.stdout.strip().endswith("a module may be at most 256 KB"), run.stdout + run.stderr
    # and at home, where a plain pytest run stages nothing, the import refuses it the same way
    from grader.harness.impl import refuse_other_encodings

    with pytest.raises(ImportError, match=r"^roofline.py is not graded: it is 317 KB; a module may be at most 256 KB$"):
        refuse_other_encodings(large / "roofline.py", "assignment")
    many = mutants.materialize_reference(tmp_path / "many") / "assignment"
    for i in range(70):
        (many / f"helper_{i}.py").write_text("x = 1\n")
    with pytest.raises(BadSubmission, match="at most 64 are graded"):
        stage(Submission("many", many.parent), tmp_path / "s2")


def implementation(folder: Path, files: dict[str, str]):
    """An implementation package at ``folder`` (its files by relative path), imported through the harness."""
    from grader.harness.impl import Implementation

    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return Implementation(folder.name, folder.parent)


def test_a_subfolder_imports_at_home_no_more_than_when_graded(tmp_path):
    """Grading stages only the package's own .py files: a helper package must fail at home too."""
    from grader.harness.impl import Implementation, LoadError

    package = tmp_path / "pkg_with_helpers"
    impl = implementation(package, {
        "helpers/__init__.py": "def row_major(shape):\n    return 1\n",
        "strides.py": "from .helpers import row_major\n",
        "dtypes.py": "import helpers\n",  # a flat submission's bare import
        "memory.py": "from . import strides_util\n",
        "strides_util.py": "x = 1\n",  # its own file: fine
    })
    for module in ("strides", "dtypes"):
        with pytest.raises(LoadError, match="is a folder: only the .py files directly in pkg_with_helpers/ are graded"):
            impl.module(module)
    assert impl.module("memory").strides_util.x == 1
    # graded, the folder is staged empty (its name only): the import fails as at home, saying why
    staged = stage_submission(package, tmp_path / "staged") / "assignment"
    assert (staged / "helpers").is_dir() and not any((staged / "helpers").iterdir())
    graded = Implementation("assignment", staged.parent)
    with pytest.raises(LoadError, match="is a folder: only the .py files directly in assignment/ are graded"):
        graded.module("strides")


def test_bytecode_without_its_source_imports_at_home_no_more_than_when_graded(tmp_path):
    """A helper.pyc whose helper.py is gone (``compileall -b``, a tool's leftovers) imported at home, and graded
    the part scored 0 sending the student to a public run that passed: grading copies .py files alone (red team)."""
    import py_compile

    from grader.harness.impl import LoadError

    package = tmp_path / "pkg_with_bytecode"
    impl = implementation(package, {"helper.py": "def double(x):\n    return 2 * x\n",
                                    "strides.py": "from .helper import double\n"})
    py_compile.compile(str(package / "helper.py"), cfile=str(package / "helper.pyc"))
    (package / "helper.py").unlink()
    with pytest.raises(LoadError, match="pkg_with_bytecode/helper.pyc is bytecode without its helper.py: grading "
                                        "copies only the .py files of pkg_with_bytecode/, so put helper.py back"):
        impl.module("strides")


def test_only_utf8_source_is_imported(tmp_path):
    """The readings read UTF-8: a coding line makes Python run other text (``#\\u000a`` is a comment to
    one and a new line to the other), so such a module does not import, at home or graded."""
    from grader.harness.impl import LoadError

    package = tmp_path / "pkg_with_codings"
    impl = implementation(package, {"gradients.py": "# -*- coding: unicode_escape -*-\nx = 1 #\\u000ay = 2\n",
                                    "strides.py": "# -*- coding: utf-8 -*-\nx = 1\n", "__init__.py": ""})
    with pytest.raises(LoadError, match="declares the source encoding 'unicode_escape': only UTF-8"):
        impl.module("gradients")
    assert impl.module("strides").x == 1
    # a byte-order mark: Python imports the file, and the readings read it as Python does, without the mark
    (package / "memory.py").write_bytes(b"\xef\xbb\xbfimport math\nx = math.pi\n")
    assert impl.source("memory") == "import math\nx = math.pi\n" and impl.module("memory").x > 3


def test_graded_modules_are_plain_utf8_whatever_runs_first(tmp_path):
    """A coding line ``tokenize`` cannot read (``unicode_escape`` then a byte ``\\xff``) still imports in
    Python, and a module the package's ``__init__`` imports is imported before any check in the worker
    can run: so staging, on the trusted side, puts a module that only says why in place of any module
    that is not plain UTF-8. What the readings read is then what runs."""
    from grader.harness.impl import Implementation, LoadError

    hidden = b"# -*- coding: unicode_escape -*- \xff\nx = 1 #\\u000ax = 2\n"
    assert _imports_as_python_does(tmp_path / "plain", hidden) == 2  # Python runs the hidden line
    source = tmp_path / "submission" / "assignment"
    source.mkdir(parents=True)
    (source / "__init__.py").write_text("from . import gradients\n")
    (source / "gradients.py").write_bytes(hidden)
    (source / "memory.py").write_bytes("# é\n".encode("latin-1"))
    (source / "strides.py").write_text("# -*- coding: utf-8 -*-\nx = 'é'\n")
    (source / "dtypes.py").write_text("#!/usr/bin/env python\n# coding=UTF8\nx = 1\n")
    # a lone "\r" ends a line for Python's tokenizer, not for tokenize's: a coding line the latter misses
    (source / "roofline.py").write_bytes(b"\r# coding: raw_unicode_escape\nx = 1 #\\u000ax = 2\n")
    staged = stage_submission(source.parent, tmp_path / "staged") / "assignment"
    for module in ("strides", "dtypes"):
        assert (staged / f"{module}.py").read_bytes() == (source / f"{module}.py").read_bytes()
    for module, why in (("gradients", "not UTF-8 (byte 33)"), ("memory", "not UTF-8 (byte 2)"),
                        ("roofline", "declares the source encoding 'raw_unicode_escape'")):
        assert (staged / f"{module}.py").read_text().startswith("raise ImportError("), module
        assert why in (staged / f"{module}.py").read_text()
    graded = Implementation("assignment", staged.parent)
    with pytest.raises(LoadError, match="gradients.py is not graded: it is not UTF-8"):
        graded.module("strides")  # the package's __init__ imports gradients first


def _imports_as_python_does(folder: Path, source: bytes) -> object:
    folder.mkdir()
    (folder / "hidden_line.py").write_bytes(source)
    run = subprocess.run([sys.executable, "-c", "import hidden_line; print(hidden_line.x)"], cwd=folder,
                         capture_output=True, text=True, timeout=60)
    return int(run.stdout) if run.returncode == 0 else run.stderr


def test_a_library_never_imports_a_module_of_the_submission_by_its_bare_name(tmp_path):
    """A flat submission imports its siblings by bare name; a library's own lazy import of an optional
    dependency (jaxtyping's ``import jax``) must not find a ``jax.py`` of the submission's."""
    import importlib

    impl = implementation(tmp_path / "pkg_with_jax", {
        "jax.py": "TAKEN = True\n", "helper_mod_xyz.py": "VALUE = 3\n",
        "strides.py": "import helper_mod_xyz\nVALUE = helper_mod_xyz.VALUE\n"})
    assert impl.module("strides").VALUE == 3
    try:
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module("jax")  # asked by code that is not the submission's
    finally:
        sys.modules.pop("helper_mod_xyz", None)


def test_the_handout_s_tests_import_at_home_no_more_than_when_graded(tmp_path):
    """A worker sees no ``tests/``: constants a submission takes from a strategy file must fail at home,
    at import or in a call, with a message that says why (the test modules are already imported here)."""
    from grader.harness.impl import LoadError

    import tests.strategies.part02  # noqa: F401 - in sys.modules, as in a student's run
    impl = implementation(tmp_path / "pkg_taking_tests", {
        "dtypes.py": "from tests.strategies.part02 import E2M1_GRID\n",
        "memory.py": "def grid():\n    import tests.strategies.part02 as s\n    return s.E2M1_GRID\n",
        "strides.py": "import json\n",  # anything else imports as before
    })
    with pytest.raises(LoadError, match="imports tests.strategies.part02: the tests are not there when your code"):
        impl.module("dtypes")
    with pytest.raises(ModuleNotFoundError, match="the tests are not there"):
        impl.module("memory").grid()
    assert impl.module("strides").json.dumps(1) == "1"
    import tests.strategies.part02 as again  # the harness's own imports are untouched
    assert again.E2M1_GRID


def test_a_library_grading_lacks_is_refused_at_home_as_grading_would(tmp_path, monkeypatch):
    """A library installed at home (site-packages, ``pip install --target``, PYTHONPATH) that the grading
    machine has not (it has what requirements.txt lists) imports at home and fails the part graded: the home
    import refuses it at once, at import or in a call, saying why; the standard library, the spec's libraries,
    the others requirements.txt installs and the submission's own modules import as before."""
    from grader.harness.impl import LoadError

    libs = tmp_path / "libs"
    libs.mkdir()
    (libs / "fancylib_xyz.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(libs))
    impl = implementation(tmp_path / "pkg_with_a_library", {
        "model.py": "from fancylib_xyz import VALUE\n",
        "training.py": "def value():\n    import fancylib_xyz.sub\n    return 1\n",
        "helper_for_named.py": "K = 2\n",
        "dtypes.py": "import __main__\n\n\ndef missing():\n    try:\n        import absent_lib_xyz.sub\n"
                     "    except ModuleNotFoundError as e:\n        return e.name\n",
        "named.py": "import json, math, sympy, typing_extensions\nimport torch.nn.functional as F\nimport numpy as np\n"
                    "import einops, jaxtyping\nimport helper_for_named\nfrom . import helper_for_named as h\n",
    })
    with pytest.raises(LoadError, match="imports fancylib_xyz: fancylib_xyz is not installed where your code is "
                                        "graded"):
        impl.module("model")
    with pytest.raises(ModuleNotFoundError, match="fancylib_xyz is not installed where your code is graded") as e:
        impl.module("training").value()
    assert e.value.name == "fancylib_xyz"  # as a plain import's: `except ModuleNotFoundError as e: e.name == ...`
    # one installed neither here nor there fails as usual; one requirements.txt lists but this machine lacks, too
    # (the student installs it, told "No module named"): its name is nothing to say "not where graded" of
    assert impl.module("dtypes").missing() == "absent_lib_xyz"
    assert impl.module("named").h.K == 2
    import fancylib_xyz  # the harness's own imports (and a library's) are untouched

    assert fancylib_xyz.VALUE == 1
    sys.modules.pop("fancylib_xyz", None)
    sys.modules.pop("helper_for_named", None)


def test_the_home_check_takes_what_grading_installs_from_the_handout_s_recording(tmp_path, monkeypatch):
    """A student who adds a library to their copy of requirements.txt (thinking the grader installs it) must
    not make the home check pass what grading refuses: the handout's recording names the distributions
    requirements.txt pinned when it was made, and the check reads those; requirements.txt only where no
    recording says (the staff's repository)."""
    from grader.harness import impl as impl_module

    ours = impl_module.pinned_distributions(ROOT / "requirements.txt")
    assert ours is not None and "sympy" in ours
    requirements, manifest = tmp_path / "requirements.txt", tmp_path / "manifest.json"
    requirements.write_text((ROOT / "requirements.txt").read_text())  # sympy, as the student's copy lists it
    manifest.write_text(json.dumps({"requirements": [name for name in ours if name != "sympy"]}))  # not graded
    monkeypatch.setattr(impl_module, "REQUIREMENTS", requirements)
    monkeypatch.setattr(impl_module, "RECORDED_MANIFEST", manifest)
    try:
        impl_module.graded_libraries.cache_clear()
        assert "sympy" not in impl_module.graded_libraries() and "numpy" in impl_module.graded_libraries()
        manifest.unlink()
        impl_module.graded_libraries.cache_clear()
        assert "sympy" in impl_module.graded_libraries()
    finally:
        impl_module.graded_libraries.cache_clear()


def test_a_student_id_never_takes_a_batch_file_s_place(tmp_path):
    for name in ("grades.csv", "report.html", "batch.json.zip", "Grades.CSV"):
        (tmp_path / name).mkdir() if not name.endswith(".zip") else (tmp_path / name).write_bytes(b"")
    ids = [s.student for s in expand([tmp_path])]
    assert ids == sorted(["grades.csv_", "report.html_", "batch.json_", "Grades.CSV_"])


def test_no_cell_of_grades_csv_reads_as_a_formula(tmp_path):
    """A spreadsheet reads a cell beginning with =, +, - or @ as a formula (``+1+1`` shows as 2, ``-A1+96``
    points at another cell): no student id begins so, and an error's text is quoted where it does."""
    for name in ("+1+1", "-A1+96", "@SUM.zip", "_-x", "jane+test@uni.edu"):
        (tmp_path / name).mkdir() if not name.endswith(".zip") else (tmp_path / name).write_bytes(b"")
    ids = [s.student for s in expand([tmp_path])]
    assert sorted(ids) == sorted(["1+1", "A1+96", "SUM", "x", "jane+test@uni.edu"])
    result = dataclasses.replace(synthetic("ada", set()), error="=HYPERLINK(1)\nmore")
    outputs.write_csv([result], R.load(), tmp_path / "grades.csv")
    [row] = list(csv.DictReader(open(tmp_path / "grades.csv")))
    assert row["error"] == "'=HYPERLINK(1)"


def test_where_code_reads_the_machine_is_for_staff_only_and_worth_nothing(tmp_path):
    """``grader/review.py``'s flags: on Gradescope a test only instructors see (visibility "hidden"), worth 0;
    a column of grades.csv; a section of report.html, escaped; kept through grading.json."""
    from grader import report

    flags = ("torch.get_num_threads: model.py:23, training.py:51", "'/proc/<script>': strides.py:9")
    flagged, plain = dataclasses.replace(synthetic("ada", set()), review=flags), synthetic("bob", set())
    data = outputs.gradescope(flagged)
    [entry] = [t for t in data["tests"] if t["name"].startswith("For staff")]
    assert entry["visibility"] == "hidden" and entry["score"] == entry["max_score"] == 0
    assert all(line in entry["output"] for line in flags) and "model.py" not in data["output"]
    assert data["score"] == outputs.gradescope(plain)["score"]
    assert not [t for t in outputs.gradescope(plain)["tests"] if t["name"].startswith("For staff")]
    outputs.write_csv([flagged, plain], R.load(), tmp_path / "grades.csv")
    rows = {row["student"]: row for row in csv.DictReader(open(tmp_path / "grades.csv"))}
    assert rows["ada"]["review"] == "; ".join(flags) and rows["bob"]["review"] == ""
    assert scoring.SubmissionResult.from_dict(json.loads(json.dumps(flagged.to_dict()))) == flagged
    page = report.render([flagged, plain], R.load())
    assert 'id="review"' in page and "training.py:51" in page and "&lt;script&gt;" in page and "<script>" not in page
    assert 'id="review"' not in report.render([plain], R.load())


# --------------------------------------------------------------------------- end to end
@pytest.fixture(scope="module")
def partial_graded_twice(tmp_path_factory):
    """The same submission, graded twice from scratch under one seed (drawing live, not replaying)."""
    out1, out2 = tmp_path_factory.mktemp("g1"), tmp_path_factory.mktemp("g2")
    subs = ROOT / "examples" / "submissions" / "student_partial"
    for out in (out1, out2):
        grade(str(subs), "--out", str(out), "-j", "1", "-m", "part1 or part2", "--seed", "11", "--single",
              "--profile", "mutants")
    return [written(o)["student_partial"] for o in (out1, out2)]


def test_same_seed_same_result_test_by_test(partial_graded_twice):
    first, second = partial_graded_twice
    strip = lambda r: [(t["test"], t["status"], t["message"]) for t in r["tests"]]  # noqa: E731
    assert strip(first) == strip(second)


def test_the_planted_bug_costs_its_test_only(partial_graded_twice):
    tests = {t["test"].split("::")[1]: t for t in partial_graded_twice[0]["tests"] if t["part"] == 1}
    assert tests["test_is_contiguous"]["status"] == "failed"
    assert tests["test_view_strides"]["status"] == "passed"


def fake_autograder(folder: Path, recording_of: Path | None) -> Path:
    """/autograder as Gradescope lays it out: the zip's files in source/ (here, links to this
    repository's), the seed and the reference run recorded at build time in source/autograder-data."""
    source = folder / "source"
    source.mkdir(parents=True)
    for entry in ("grader", "reference", "tests", "assignment", "conftest.py", "pyproject.toml", "requirements.txt"):
        (source / entry).symlink_to(ROOT / entry)
    if recording_of is not None:
        shutil.copytree(recording_of, source / "autograder-data" / "recording")
    (folder / "submission").mkdir()
    return folder


def run_autograder(fake: Path) -> tuple[dict, str]:
    env = dict(os.environ, AUTOGRADER_ROOT=str(fake), GRADER_PYTHON=sys.executable)
    run = subprocess.run([str(ROOT / "grader" / "gradescope" / "run_autograder")], env=env,
                         capture_output=True, text=True, timeout=900)
    return json.loads((fake / "results" / "results.json").read_text()), run.stdout + run.stderr


# Part 1 of the reference, made to leak what it is given: one function returns a wrong answer, another raises
# an exception of its own named and worded with every input it was given so far
LEAKS = '''
SEEN = []


class Leak_of_the_inputs(Exception):
    pass


_contiguous_strides = contiguous_strides


def contiguous_strides(shape):
    SEEN.append(tuple(shape))
    return (12345,) + tuple(_contiguous_strides(shape))[1:] if len(shape) > 1 else _contiguous_strides(shape)


def flat_index(index, strides, offset=0):
    SEEN.append(tuple(index))
    raise Leak_of_the_inputs(f"seen so far: {SEEN}")
'''


@pytest.fixture(scope="module")
def gradescope_run(tmp_path_factory):
    """run_autograder in a fake /autograder layout, replaying a recording made at build time, for an empty
    submission, one whose Part 1 leaks what it is given and one of which no module compiles; and ``warm``
    (setup.sh's last step), whose own run_autograder of the reference is the good submission's."""
    made = recording(seed=17)
    good = fake_autograder(tmp_path_factory.mktemp("autograder-good"), made)
    env = dict(os.environ, AUTOGRADER_ROOT=str(good), GRADER_PYTHON=sys.executable)
    run = subprocess.run([str(ROOT / "grader" / "gradescope" / "warm")], env=env, capture_output=True, text=True,
                         timeout=900, cwd=tmp_path_factory.mktemp("elsewhere"))  # setup.sh's folder is not the source's
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    kept = good / "source" / "autograder-data" / "warm"
    runs = {"warmed": good, "good": json.loads((kept / "results.json").read_text()),
            "timing": json.loads((kept / "timing.json").read_text())}
    for name in ("empty", "leaks", "broken"):
        fake = fake_autograder(tmp_path_factory.mktemp(f"autograder-{name}"), made)
        if name != "empty":
            # as a student uploads them: loose files; beside the leaking Part 1 the stubs, which fail at once (the
            # reference's whole grading on this path is the good submission's)
            for path in (ROOT / ("assignment" if name == "leaks" else "reference")).glob("*.py"):
                shutil.copy(path, fake / "submission" / path.name)
        if name == "leaks":
            (fake / "submission" / "strides.py").write_text((ROOT / "reference" / "strides.py").read_text() + LEAKS)
        if name == "broken":  # not one module compiles
            for path in (fake / "submission").glob("*.py"):
                if path.name != "__init__.py":
                    path.write_text(path.read_text() + "\ndef broken(:\n")
        runs[name] = run_autograder(fake)[0]
    return runs


def test_warm_grades_the_reference_once_and_keeps_what_each_part_cost(gradescope_run):
    """``warm`` (setup.sh's last step, once per image) grades the reference as run_autograder grades a
    submission: the image holds what grading makes first, and what each part cost graded, which
    run_autograder splits a submission's parts by. It writes no results where Gradescope reads them
    (its run's stay in autograder-data/warm/)."""
    from grader.batch import GRADED_SECONDS, part_weights
    from grader.harness.parts import PARTS
    from grader.session import Options

    fake = gradescope_run["warmed"]
    assert not (fake / "results").exists()
    assert list((fake / "source" / ".hypothesis" / "constants").iterdir())  # hypothesis's reading, kept
    recorded = fake / "source" / "autograder-data" / "recording"
    graded = json.loads((recorded / GRADED_SECONDS).read_text())
    assert sorted(map(int, graded)) == sorted(PARTS) and all(seconds > 0 for seconds in graded.values())
    assert part_weights(Options(recording=recorded)) == {int(part): s for part, s in graded.items()}


def test_a_recording_made_in_pieces_is_the_recording_made_whole(tmp_path):
    """``record -j N`` records the parts in N processes and merges them: byte for byte what one
    process records (each test's examples follow the seed alone); pieces the selection leaves
    empty are no failure."""
    from grader.batch import _tests_per_part, split_parts
    from grader.session import Options

    # three pieces: Parts 1 and 10 in two of them, the third left empty by the selection
    assert sorted(len({1, 10} & set(group)) for group in split_parts(_tests_per_part(Options()), 3)) == [0, 1, 1]
    made = {}
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    for jobs in (1, 3):
        out = tmp_path / f"j{jobs}"
        run = subprocess.run([sys.executable, "-m", "grader", "record", "--seed", "5", "-m", "part1 or part10",
                              "-j", str(jobs), "--out", str(out)], cwd=ROOT, capture_output=True, text=True,
                             timeout=600, env={**os.environ, "TMPDIR": str(scratch)})
        assert run.returncode == 0, run.stderr[-3000:]
        made[jobs] = out
    for name in ("examples.json.gz", "answers.json.gz", "questions.json.gz", "stubs.json.gz"):
        assert (made[1] / name).read_bytes() == (made[3] / name).read_bytes(), name
    whole, pieces = (json.loads((made[j] / "manifest.json").read_text()) for j in (1, 3))
    assert set(whole["seconds"]) == set(pieces["seconds"]) and whole["seconds"]
    assert {k: v for k, v in whole.items() if k != "seconds"} == {k: v for k, v in pieces.items() if k != "seconds"}
    assert not list(tmp_path.glob("*.piece*"))
    assert not list(scratch.iterdir()), "a recording that succeeded left its logs behind"


@pytest.mark.parametrize("jobs", [1, 3])
def test_a_selection_of_cuda_tests_alone_has_nothing_to_record_and_is_no_failure(tmp_path, jobs):
    """cuda tests are never recorded (they compare with the live reference on a GPU): a GPU pass (-m cuda)
    records nothing, which is neither the reference failing nor a note in the batch's output."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    run = subprocess.run([sys.executable, "-m", "grader", "record", "--seed", "5", "-m", "cuda", "-j", str(jobs),
                          "--out", str(tmp_path / "rec")], cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "TMPDIR": str(scratch)})
    assert run.returncode == 2 and "nothing to record" in run.stderr and "failed" not in run.stderr, run.stderr
    assert not list(scratch.iterdir()), "nothing recorded, and its logs left behind"
    assert not (tmp_path / "rec").exists() or not any((tmp_path / "rec").iterdir())


def test_a_stale_recording_is_refused_with_a_clear_message(tmp_path):
    """A recording made from other tests or another reference must never be replayed."""
    stale = tmp_path / "stale"
    shutil.copytree(recording(seed=17), stale)
    # made readable by its owner alone (the answers to every graded example, and the seed)
    assert all(p.stat().st_mode & 0o077 == 0 for p in [recording(seed=17), *recording(seed=17).iterdir()])
    manifest = json.loads((stale / "manifest.json").read_text())
    # and it names what changed since (a staff member who fixed a comment knows why)
    files = {**manifest["files"], "reference/strides.py": "0" * 16}
    assert "tests/test_part01_strides.py" in files and "grader/harness/door.py" in files
    (stale / "manifest.json").write_text(json.dumps({**manifest, "fingerprint": "0" * 64, "files": files}))
    run = subprocess.run([sys.executable, "-m", "grader", "grade", str(ROOT / "examples" / "submissions" / "reference"),
                          "--single", "--out", str(tmp_path / "out"), "--recording", str(stale)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 2 and "made from other tests, another reference or another harness" in run.stderr
    assert ": reference/strides.py changed)" in run.stderr, run.stderr
    fake = fake_autograder(tmp_path / "autograder", stale)
    results, _ = run_autograder(fake)
    # the student is told the grader failed, not why: the log names the staff's files, for instructors alone
    [staff] = results["tests"]
    assert results["score"] == 0 and "not a grade of your code" in results["output"]
    assert staff["visibility"] == "hidden" and "record it again" in staff["output"]
    assert "record it again" not in results["output"] and "autograder-data" not in results["output"]


def test_a_damaged_recording_is_refused_naming_the_file(tmp_path):
    """A recording missing its examples, or with a file cut short, replayed every test as skipped ("4 passed,
    62 skipped") or stopped at a bare zlib error: it is refused, naming the file and what to do."""
    from grader.harness.recording import Recording, Stale

    for damage in ("examples.json.gz", "answers.json.gz", "manifest.json"):
        broken = tmp_path / damage
        shutil.copytree(recording(seed=17), broken)
        path = broken / damage
        if damage == "examples.json.gz":
            path.unlink()
        else:
            path.write_bytes(path.read_bytes()[:40])
        with pytest.raises(Stale, match=rf"{damage} cannot be read .*restore the folder as it was given"):
            Recording.load(broken)


def test_a_recording_of_some_parts_says_which_parts_a_batch_drew_live(tmp_path):
    """Recorded with ``-m part1`` and replayed for a whole batch, the other parts are drawn live: right,
    but slower and unsaid; the batch names the parts its recording did not hold."""
    from grader.cli import _parts_drawn_live

    part1 = tmp_path / "part1"
    shutil.copytree(recording(seed=17), part1)
    manifest = json.loads((part1 / "manifest.json").read_text())
    manifest["seconds"] = {t: s for t, s in manifest["seconds"].items() if "part01" in t}
    (part1 / "manifest.json").write_text(json.dumps(manifest))
    rubric = R.load()
    graded = [TestOutcome(i.test, "passed") for i in rubric.items if i.part in (1, 2, 7)]
    result = scoring.score("ada", graded, rubric, seconds=1.0)  # the other parts: "did not run"
    assert _parts_drawn_live(part1, [result], rubric) == [2, 7]
    assert _parts_drawn_live(recording(seed=17), [result], rubric) == []


def test_run_autograder_writes_gradescope_results(gradescope_run):
    good = gradescope_run["good"]
    pending = sum(i.points for i in R.load().items if i.test in CUDA)
    assert good["score"] == 100 - pending
    assert len(good["tests"]) == len(R.load().items)


def test_run_autograder_says_where_its_time_went_for_staff(gradescope_run):
    """timing.json (beside results.json, which Gradescope reads alone): the phases, and the CPU the grading
    processes and their workers used, what the benchmarks print."""
    timing = gradescope_run["timing"]["submission"]["timing"]
    assert timing["questions"] > 1000 and 0 < timing["round trips"] < timing["questions"]
    assert timing["grading CPU seconds"] > 0 and timing["workers' CPU seconds"] > 0
    assert "grading seconds" in gradescope_run["timing"]["batch"]["phases"]


def test_on_gradescope_a_failed_test_shows_its_graded_example_only_once_grades_are_published(gradescope_run):
    """Every resubmission is graded on the zip's examples: a failed public test says what failed, never on
    which example nor what the code sent back (its return value, its exception's name and words), which would
    let a table learn the graded examples one resubmission at a time; the whole message waits for publication."""
    leaks = gradescope_run["leaks"]
    shown = {t["name"]: t for t in leaks["tests"] if t["visibility"] == "visible"}
    later = {t["name"]: t for t in leaks["tests"] if t["name"].endswith(": the failing example")}
    wrong, raised = shown["Part 1 · test_contiguous_strides"], shown["Part 1 · test_flat_index"]
    assert wrong["status"] == raised["status"] == "failed"
    assert "strides.contiguous_strides: a wrong answer" in wrong["output"]
    assert "strides.flat_index raised an exception" in raised["output"]
    for entry in (wrong, raised):
        assert "when grades are published" in entry["output"] and "pytest -x tests/test_part01_strides.py" in \
            entry["output"], entry["output"]
    visible = "\n".join(t.get("output", "") for t in shown.values()) + leaks["output"]
    for secret in ("input:", "expected:", "returned:", "12345", "seen so far", "Leak_of_the_inputs"):
        assert secret not in visible, secret
    for name in ("Part 1 · test_contiguous_strides", "Part 1 · test_flat_index"):
        full = later[f"{name}: the failing example"]
        assert full["visibility"] == "after_published" and full["max_score"] == 0 and "input:" in full["output"]
    assert "12345" in later["Part 1 · test_contiguous_strides: the failing example"]["output"]
    # (the other parts are the stubs': Part 1's passed tests are the score)
    assert leaks["score"] == sum(t["max_score"] for t in leaks["tests"] if t["name"].startswith("Part 1 · ")
                                 and t.get("status") == "passed") > 0
    assert not any(t["name"].endswith(": the failing example") for t in gradescope_run["good"]["tests"])


def test_a_worker_with_less_of_its_sandbox_is_told_to_staff_alone():
    """Where a worker ran without namespaces or its file view, results.json says so where only instructors
    read it (on Gradescope grading.json, which has the note, is gone with run_autograder's scratch)."""
    result = scoring.score("ada", [], R.load(), seconds=1.0,
                           notes=["isolation (none available): none", "isolation MISSING: namespaces (refused)"])
    [staff] = [t for t in outputs.gradescope(result)["tests"] if t["name"].startswith("For staff: this submission")]
    assert staff["visibility"] == "hidden" and staff["max_score"] == 0 and "namespaces (refused)" in staff["output"]
    assert not any(t["name"].startswith("For staff") for t in outputs.gradescope(synthetic("bo", set()))["tests"])


def test_as_root_the_grader_makes_the_recording_and_the_seed_it_was_given_its_own(tmp_path):
    """A recording holds every graded question with its answer: where a worker could read the machine (no
    namespaces), it must not read it, wherever it lies, nor the zip's autograder-data."""
    from grader.cli import protect_staff_files

    root = tmp_path / "source"
    (root / "autograder-data" / "recording").mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o755)
    (elsewhere / "answers.json.gz").write_text("{}")
    seed = tmp_path / "seed"
    seed.write_text("7")
    seed.chmod(0o644)
    done = protect_staff_files(root, (str(elsewhere), str(seed), None))
    assert "autograder-data" in done and str(elsewhere) in done and str(seed) in done
    # hypothesis's folder, not there yet on a fresh checkout: made the grader's before hypothesis writes the
    # reference's literals into it
    assert ".hypothesis" in done
    for path in (root / "autograder-data", elsewhere, seed, root / ".hypothesis"):
        assert path.stat().st_mode & 0o077 == 0, path


def test_run_autograder_scores_an_empty_upload_zero_with_a_reason(gradescope_run):
    empty = gradescope_run["empty"]
    assert empty["score"] == 0
    assert "could not read the submission" in empty["output"]


def test_run_autograder_says_at_once_why_no_module_loads(gradescope_run):
    """A submission none of whose modules compiles is told so at once, each with its line, in the grader's own
    reading of the files (a Gradescope run split by part once said nothing of it)."""
    broken = gradescope_run["broken"]
    assert broken["score"] == 0 and "nothing the tests ask could be loaded" in broken["output"], broken["output"]
    assert broken["output"].count("does not compile: SyntaxError: invalid syntax (line") == 10, broken["output"]


def test_replaying_a_recorded_reference_run_grades_like_live_hypothesis(tmp_path):
    """A batch replays one recorded reference run; the verdicts must be those of drawing afresh (graded on the
    parts where a submission fails: the partial one writes Parts 1-5; three mutants, of Parts 1, 7 and 9, are
    one submission beside the stubs, as the mutants' self-test packs them)."""
    subs = tmp_path / "subs"
    shutil.copytree(ROOT / "examples" / "submissions" / "student_partial", subs / "partial")
    chosen = ("part01_view_refuses_noncontiguous", "part07_grad_w_transposed", "part09_train_no_zero_grad")
    mutants.materialize_together([mutants.load(ROOT / "mutants" / f"{name}.py") for name in chosen], subs / "mutants",
                                 others=ROOT / "assignment")
    verdicts = {}
    for mode in ("replay", "live"):
        out = tmp_path / mode
        grade(str(subs), "--out", str(out), "-j", "2", "--seed", "5", "--no-isolate", "--profile", "mutants",
              "-m", "part1 or part2 or part3 or part4 or part5 or part7 or part9",
              *(["--live"] if mode == "live" else []))
        verdicts[mode] = {student: sorted(t["test"] for t in result["tests"]
                                          if t["status"] == "failed" and t["message"] != NOT_SELECTED)
                          for student, result in written(out).items()}
    differ = {student: (sorted(set(failed) ^ set(verdicts["live"][student])))
              for student, failed in verdicts["replay"].items() if failed != verdicts["live"][student]}
    assert not differ, f"tests failed in one mode only: {differ}"
    assert all(verdicts["replay"].values())
    assert all(any(t.startswith(f"test_part{n:02d}_") for t in verdicts["replay"]["mutants"]) for n in (1, 7, 9))


# --------------------------------------------------------------------------- one submission, split by part
def test_parts_are_split_into_balanced_groups_that_cover_each_part_once():
    from grader.batch import split_parts

    weights = {1: 0.7, 2: 1.4, 3: 1.4, 4: 1.0, 5: 1.0, 6: 1.7, 7: 1.5, 8: 2.2, 9: 1.6, 10: 0.5}
    for pieces in (1, 2, 3, 4, 10, 12):
        groups = split_parts(weights, pieces)
        assert sorted(p for g in groups for p in g) == sorted(weights) and all(groups)
        assert len(groups) == min(pieces, len(weights))
        loads = [sum(weights[p] for p in g) for g in groups]
        assert max(loads) - min(loads) <= max(weights.values()), (pieces, groups)
    # a Gradescope image's graded seconds: longest first alone puts 7.04 s in one group; 6.90 s is best
    graded = {1: 0.803, 2: 0.908, 3: 1.298, 4: 1.461, 5: 2.943, 6: 1.338, 7: 1.446, 8: 1.67, 9: 1.536, 10: 0.388}
    assert max(sum(graded[p] for p in g) for g in split_parts(graded, 2)) < 6.92


def test_a_joined_result_takes_each_test_from_the_piece_that_ran_its_part():
    from grader.batch import join_pieces

    tests = [("test_part01_strides.py::test_a", 1), ("test_part02_dtypes.py::test_b", 2)]

    def piece(ran: int, error: str = "") -> scoring.SubmissionResult:
        outcomes = [TestOutcome(t, "passed") for t, part in tests if part == ran and not error]
        rubric = R.Rubric(tuple(R.Item(t, part, 1.0, False) for t, part in tests))
        return scoring.score("ada", outcomes, rubric, seconds=float(ran), error=error,
                             timing={"questions": 10.0})

    joined = join_pieces([([1], piece(1)), ([2], piece(2))])
    assert [t.status for t in joined.tests] == ["passed", "passed"] and joined.score == 2
    assert joined.seconds == 2.0 and joined.timing == {"questions": 20.0} and not joined.error
    stopped = join_pieces([([1], piece(1)), ([2], piece(2, error="the grading process was stopped (time limit)"))])
    assert [t.status for t in stopped.tests] == ["passed", "failed"] and "stopped" in stopped.error


def test_one_submission_split_across_processes_grades_like_one_process(tmp_path):
    """Spare slots grade one submission by parts, in parallel: the verdicts and messages must not change."""
    made = recording(seed=17)
    sub = ROOT / "examples" / "submissions" / "student_partial"
    seen = {}
    for jobs in ("1", "3"):
        out = tmp_path / f"j{jobs}"
        grade(str(sub), "--single", "--out", str(out), "-j", jobs, "--recording", str(made))
        seen[jobs] = [(t["test"], t["status"], t["kind"], t["message"]) for t in written(out)["student_partial"]["tests"]]
    assert seen["1"] == seen["3"]
    assert any(status == "failed" for _, status, _, _ in seen["1"])


def test_gradescope_setup_imports_only_what_requirements_pin():
    """setup.sh checks its install by importing the grader's libraries under ``set -e``: a name that
    requirements.txt does not pin fails the image's build before ``warm`` runs, and no container is
    ever made (it once named beartype, which the project does not use)."""
    root = Path(__file__).resolve().parents[1]
    setup = (root / "grader" / "gradescope" / "setup.sh").read_text()
    checked = [line for line in setup.splitlines() if '-c "import ' in line]
    assert checked, "setup.sh no longer checks its install with an import"
    names = checked[0].split('-c "import ', 1)[1].rstrip('"').split(", ")
    pinned = {line.split("==")[0].lower().replace("-", "_")
              for line in (root / "requirements.txt").read_text().splitlines() if "==" in line}
    assert [n for n in names if n.lower() not in pinned] == []


def test_gradescope_setup_stops_on_a_python_older_than_the_grader_needs(tmp_path):
    """An image whose python3 is 3.10 (Ubuntu 22.04) built, and failed at warm's first import of the grader with
    a traceback about tomllib: setup.sh's own check says what Python it found and which image to choose."""
    setup = (ROOT / "grader" / "gradescope" / "setup.sh").read_text()
    check = next(line for line in setup.splitlines() if "sys.version_info" in line)
    fake = tmp_path / "python3"
    fake.write_text("#!/bin/sh\n[ \"$1\" = -V ] && echo 'Python 3.10.12' && exit 0\nexit 1\n")  # as 3.10 answers
    fake.chmod(0o755)
    script = "set -euo pipefail\n" + setup[setup.index(check):setup.index("fi\n", setup.index(check)) + 3]
    done = subprocess.run(["bash", "-c", script], env={"PATH": f"{tmp_path}:/usr/bin:/bin"}, capture_output=True,
                          text=True)
    assert done.returncode == 1 and "python3 is Python 3.10.12; the grader needs Python 3.11" in done.stderr, done
    here = subprocess.run(["bash", "-c", script.replace("python3", sys.executable)], capture_output=True, text=True)
    assert here.returncode == 0, here


def test_progress_in_a_log_is_lines_not_a_redrawn_bar():
    """Piped to a file (Slurm, CI), the bar is a line at each tenth of the batch, no carriage returns."""
    import io

    from grader.batch import Progress

    log = io.StringIO()
    progress = Progress(250, stream=log)
    progress.update()
    for _ in range(250):
        progress.update(scoring.score("s", [], R.load(), seconds=0.0))
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue() and len(lines) == 11, lines
    assert lines[-1].startswith("[" + "#" * 28 + "] 250/250 graded")


def test_markers_given_twice_select_the_tests_either_selects():
    """``grade -m part4 -m part7`` grades both parts (pytest's own -m keeps the last alone)."""
    from grader.cli import _either, main

    assert _either(["part4", "part7"]) == "(part4) or (part7)"
    assert _either(["part1 or part2"]) == "part1 or part2"
    assert _either(None) is None
    with pytest.raises(SystemExit):
        main(["grade", "somewhere", "-m", " "])


def test_a_marker_no_test_carries_is_refused(capsys):
    """``-m part07`` (numbered as the test files are) would select nothing and score every submission 0."""
    from grader.cli import _marker, main

    assert _marker(" part7 and not hidden ") == "part7 and not hidden"
    assert _marker("(part10) or cuda") == "(part10) or cuda"
    assert _marker("part5 and not timed") == "part5 and not timed"
    with pytest.raises(SystemExit):
        main(["grade", "somewhere", "--out", "nowhere", "-m", "part07"])
    assert "did you mean part7?" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["record", "--seed", "1", "--out", "nowhere", "-m", "part4 or gpu"])
    assert "'gpu'" in capsys.readouterr().err


def test_parts_of_grades_those_named_on_their_parts_alone_within_the_selection(tmp_path):
    """``--parts-of`` (a regrade of some parts): a student it names runs only those parts' tests of -m's
    selection, the others not selected (blank in the CSV); a student it does not name is graded whole."""
    from grader.cli import _parts_of

    for student in ("ada", "bob"):
        mutants.materialize_reference(tmp_path / "batch" / student, ROOT / "assignment")  # the stubs
    (tmp_path / "parts.json").write_text(json.dumps({"ada": [2, 9]}))
    grade(str(tmp_path / "batch"), "--out", str(tmp_path / "out"), "--parts-of", str(tmp_path / "parts.json"),
          "-m", "part2 or part3", "--no-isolate", "-j", "1", "--live", "--profile", "mutants")  # (no recording)
    ran = {student: {int(t["part"]) for t in result["tests"]  # (failed: a stub fails every test it runs)
                     if t["status"] == "failed" and t["message"] != NOT_SELECTED}
           for student, result in written(tmp_path / "out").items()}
    assert ran == {"ada": {2}, "bob": {2, 3}}, ran
    with open(tmp_path / "out" / "grades.csv", newline="") as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    assert (rows["ada"]["part3"], rows["bob"]["part3"]) == ("", "0"), (rows["ada"]["part3"], rows["bob"]["part3"])
    for given, said in (({"cy": [2]}, "names no submission of this batch: cy"), ({"ada": [11]}, "no part 11"),
                        ({"ada": []}, "each list of one part or more"), (["ada"], "expected {student id:")):
        (tmp_path / "parts.json").write_text(json.dumps(given))
        chosen, problem = _parts_of(str(tmp_path / "parts.json"), ["ada", "bob"])
        assert chosen is None and said in problem, problem
    assert _parts_of(str(tmp_path / "none.json"), ["ada"])[1].startswith(f"--parts-of {tmp_path / 'none.json'}: not")


def test_on_gradescope_a_stub_says_not_implemented_and_promises_no_example():
    """A stub's failure has no example to wait for: it says which function is not written yet, at once, and adds
    no "the failing example" entry."""
    rubric = R.load()
    stub, wrong = "test_part07_gradients.py::test_squared_error_grad", "test_part01_strides.py::test_view_strides"
    outs = [TestOutcome(i.test, "failed", "not implemented", "[Part 7] test_squared_error_grad\nnot implemented: "
                        "gradients.squared_error_grad", summary="[Part 7] test_squared_error_grad\nnot implemented: "
                        "gradients.squared_error_grad") if i.test == stub else
            TestOutcome(i.test, "failed", "wrong", "strides.view_strides: wrong\n  input: (3, 4)",
                        summary="[Part 1] test_view_strides\nstrides.view_strides: a wrong answer")
            if i.test == wrong else TestOutcome(i.test, "passed") for i in rubric.items]
    data = outputs.gradescope(scoring.score("ada", outs, rubric, seconds=1.0), hide_examples=True)
    entries = {t["name"]: t for t in data["tests"]}
    shown = entries["Part 7 · test_squared_error_grad"]
    assert "not implemented: gradients.squared_error_grad" in shown["output"]
    assert "when grades are published" not in shown["output"]
    assert "Part 7 · test_squared_error_grad: the failing example" not in entries
    assert "when grades are published" in entries["Part 1 · test_view_strides"]["output"]
    assert "Part 1 · test_view_strides: the failing example" in entries
    # a failure whose summary is all of it (a refusal read from the source) withholds nothing, promises nothing
    refused = "[Part 7] test_no_autograd\ngradients.squared_error_grad: used autograd (uses .backward at gradients.py:9)"
    outs = [TestOutcome(i.test, "failed", "wrong", refused, summary=refused) if i.name == "test_no_autograd"
            else TestOutcome(i.test, "passed") for i in rubric.items]
    data = outputs.gradescope(scoring.score("ada", outs, rubric, seconds=1.0), hide_examples=True)
    entries = {t["name"]: t for t in data["tests"]}
    assert entries["Part 7 · test_no_autograd"]["output"] == refused
    assert not any("the failing example" in name for name in entries)


def test_on_gradescope_a_module_that_does_not_load_says_why_in_the_grader_s_words(tmp_path):
    """A missing file, a renamed one or a syntax error once read "missing: roofline.PEAK_FLOPS_PER_SEC" and promised
    a failing example that does not exist: the grader reads (never runs) the file and says what is wrong with it at
    once; what an import raised, the code's own words, waits for publication, once a part."""
    from grader.harness.impl import Implementation

    sub = mutants.materialize_reference(tmp_path / "sub") / "assignment"
    (sub / "roofline.py").rename(sub / "roofline (1).py")
    (sub / "dtypes.py").write_text((sub / "dtypes.py").read_text() + "\ndef broken(:\n")
    (sub / "memory.py").write_text("import math\nraise RuntimeError('at import')\n")
    (sub / "flops.py").write_text("def something_else():\n    pass\n")
    files = Implementation("assignment", sub.parent)
    assert files.load_finding("roofline.PEAK_FLOPS_PER_SEC", "missing") == (
        "roofline.py is not in the submission (it has roofline (1).py: a module is graded under its own name alone)")
    (sub / "model.py").rename(sub / "modle.py")  # and a name misspelt
    assert "(it has modle.py:" in files.load_finding("model.DeepLinear", "missing")
    # saved as text, or with a capital extension: never staged (modules alone are), and named where missed
    (sub / "strides.py").rename(sub / "strides.py.txt")
    (sub / "gradients.py").rename(sub / "gradients.PY")
    staged = Implementation("assignment", stage_submission(sub.parent, tmp_path / "as-text"))
    assert not (staged.package_dir / "strides.py.txt").exists()
    # a batch stages the upload, then its run stages that copy again: the listing is carried through
    again = Implementation("assignment", stage_submission(staged.root, tmp_path / "as-text-again"))
    for module, name in (("strides", "strides.py.txt"), ("gradients", "gradients.PY")):
        for where in (files, staged, again):
            assert f"{module}.py is not in the submission (it has {name}:" in where.load_finding(f"{module}.x", "missing")
    (sub / "strides.py.txt").rename(sub / "strides.py")
    (sub / "gradients.PY").rename(sub / "gradients.py")
    # a module that is a link, to a file elsewhere or hard-linked to one: never staged (the grader follows no
    # link), and said for what it is (it read "missing", the file plainly there; red team)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for module, make in (("strides", os.symlink), ("gradients", os.link)):
        (sub / f"{module}.py").rename(elsewhere / f"{module}.py")
        make(elsewhere / f"{module}.py", sub / f"{module}.py")
    staged = Implementation("assignment", stage_submission(sub.parent, tmp_path / "linked"))
    assert staged.load_finding("strides.x", "import") == (
        "strides.py is not graded: it is a symbolic link, and the grader follows no link; put the file itself in the "
        "submission")
    assert "gradients.py is not graded: it is hard-linked to another file" in staged.load_finding("gradients.x",
                                                                                                 "import")
    for module in ("strides", "gradients"):
        (sub / f"{module}.py").unlink()
        (elsewhere / f"{module}.py").rename(sub / f"{module}.py")
    # a helper package: never staged (a folder), and said from the source (it read "failed as its code ran")
    (sub / "helpers").mkdir()
    (sub / "helpers" / "__init__.py").write_text("def util():\n    return 1\n")
    (sub / "training.py").write_text((sub / "training.py").read_text() + "\nfrom .helpers import util\n")
    staged = Implementation("assignment", stage_submission(sub.parent, tmp_path / "with-a-folder"))
    for where in (files, staged):
        assert where.load_finding("training.train", "import") == (
            "assignment/training.py imports assignment/helpers/, a folder: only the .py files directly in "
            "assignment/ are graded (grading copies nothing else), so import from those, or move this code into "
            "one of them")
    lines = len((sub / "dtypes.py").read_text().splitlines())
    assert files.load_finding("dtypes.float_format", "import") == \
        f"assignment/dtypes.py does not compile: SyntaxError: invalid syntax (line {lines})"
    assert "compiles: importing it failed as its top-level code ran" in files.load_finding("memory.tensor_bytes", "import")
    assert files.load_finding("flops.matmul_flops", "missing") == \
        "assignment/flops.py has no def, class, assignment or import of `matmul_flops` at its top level"
    assert files.load_finding("strides.view_strides", "missing") == ""  # it is there: the files say nothing
    # a module that is not UTF-8 is staged as the grader's refusal: said in the grader's words
    (sub / "named.py").write_bytes((sub / "named.py").read_bytes() + b"\n# caf\xe9\n")
    staged = stage_submission(sub.parent, tmp_path / "staged")
    assert "named.py is not graded: it is not UTF-8 (byte" in Implementation("assignment", staged).load_finding(
        "named.split_heads", "import")
    # __init__.py, imported first: its syntax error is its own, and a failing import may be its doing
    (sub / "__init__.py").write_text('"""The package."""\nimport math\n')
    assert files.load_finding("memory.x", "import").endswith("(or assignment/__init__.py, which runs first)")
    (sub / "__init__.py").write_text("def (\n")
    assert files.load_finding("strides.x", "import") == ("assignment/__init__.py does not compile: SyntaxError: "
                                                         "invalid syntax (line 1), and every module is imported "
                                                         "through it")
    (sub / "__init__.py").write_text("")

    rubric = R.load()
    said = {"test_part02_dtypes.py::test_float_format": ("does not import", files.load_finding("dtypes.x", "import")),
            "test_part03_memory.py::test_training_ledger": ("does not import", files.load_finding("memory.x", "import")),
            "test_part03_memory.py::test_matrix_bytes": ("does not import", files.load_finding("memory.x", "import")),
            "test_part05_roofline.py::test_peak_flops_table": ("missing", files.load_finding("roofline.X", "missing"))}
    outs = [TestOutcome(i.test, "failed", said[i.test][0], "the worker's whole message: RuntimeError: at import",
                        summary=f"[Part] {i.name}\n{said[i.test][0]}: x\n  {said[i.test][1]}")
            if i.test in said else TestOutcome(i.test, "passed") for i in rubric.items]
    data = outputs.gradescope(scoring.score("ada", outs, rubric, seconds=1.0), hide_examples=True)
    entries = {t["name"]: t for t in data["tests"]}
    syntax = entries["Part 2 · test_float_format"]["output"]
    missing = entries["Part 5 · test_peak_flops_table"]["output"]
    assert "does not compile: SyntaxError" in syntax and "pytest -x tests/test_part02_dtypes.py" in syntax
    assert "roofline (1).py" in missing and "when grades are published" not in missing + syntax
    assert "pytest -x" not in missing  # (at home the file is there: the public tests say nothing of it)
    assert "when grades are published" in entries["Part 3 · test_training_ledger"]["output"]
    visible = "\n".join(t.get("output", "") for t in data["tests"] if t["visibility"] == "visible")
    assert "at import" not in visible  # the code's own words
    whole = [t for t in data["tests"] if t["name"].endswith("why the import failed")]
    assert [t["name"] for t in whole] == ["Part 3: why the import failed"] and whole[0]["visibility"] == \
        "after_published" and "at import" in whole[0]["output"]
    assert not any(t["name"].endswith("the failing example") for t in data["tests"])


def test_an_unreadable_upload_is_out_of_the_total_every_submission_is(tmp_path, monkeypatch):
    """An upload that cannot be read has its cuda tests pending on a machine without a GPU, as every other
    submission has: it read 0/100 beside everyone's x/96, and on Gradescope "0 / 100" where the student README
    says 96 (red team, staff)."""
    from grader.harness import wire
    from grader.harness.devices import cuda_usable
    from grader.session import Options, grade_here
    from grader.submissions import Submission

    # grade_here, isolating, lets this process's tensors remember their encodings: for this test alone
    monkeypatch.setattr(wire, "REMEMBER_ENCODINGS", wire.REMEMBER_ENCODINGS)
    (tmp_path / "empty").mkdir()
    result = grade_here(Submission("empty", tmp_path / "empty"), Options(seed=1))
    assert result.error.startswith("could not read the submission") and result.score == 0
    if not cuda_usable():
        assert result.max_score == 96 and result.pending_points == 4
        assert {t.test for t in result.tests if t.status == "pending"} == R.cuda_tests(ROOT / "tests")


def test_the_table_s_maxima_are_a_graded_submission_s():
    """A result with no pending tests (an upload refused on a GPU machine) counts every test in its maxima:
    sorted first, it once made the table's "(out of)" row read Part 3 out of 8 (red team, staff)."""
    refused = scoring.score("aaa", [], R.load(), seconds=1.0, error="could not read the submission: not a zip")
    graded = synthetic("bob", set(), pending=CUDA)
    last = outputs.table([refused, graded]).splitlines()[-1]
    assert last.split()[2:5] == [str(int(graded.part_scores()[n][1])) for n in (1, 2, 3)], last


def test_a_split_run_says_nothing_loaded_once_and_only_where_no_piece_loaded_anything():
    """A lone submission is graded in pieces, by part (``--single``): each piece said "nothing could be loaded"
    of the modules it never ran too, and a piece's line stood where another piece had loaded its parts (red
    team). Each piece speaks of its own parts' modules; joined, the line stands only where every piece had it."""
    from grader.session import NOTHING_LOADED, import_kinds, joined_error

    rubric = R.load()
    outs = [TestOutcome(i.test, "failed", "does not import", "m") if i.part == 1 else
            TestOutcome(i.test, "failed", "missing", "m") if i.part == 2 else
            TestOutcome(i.test, "pending", "pending", "not selected in this run (-m or -k): a GPU pass grades it")
            if i.test in CUDA else TestOutcome(i.test, "failed", "did not run", NOT_SELECTED) for i in rubric.items]
    assert import_kinds(outs) == {"strides": "import", "dtypes": "missing"}
    one, two = f"{NOTHING_LOADED}\nstrides.py is not in the submission", f"{NOTHING_LOADED}\ndtypes line"
    assert joined_error([one, two]) == f"{NOTHING_LOADED}\nstrides.py is not in the submission\ndtypes line"
    assert joined_error([one, ""]) == "" and joined_error([one, "the grading run failed"]) == "the grading run failed"
