"""What grading writes: Gradescope's results.json per student, a CSV gradebook, a table.

Layout of an output folder:
    DIR/<student>/results.json   Gradescope's format
    DIR/<student>/grading.json   the full result, for ``python -m grader merge``
    DIR/grades.csv               one row per student
    DIR/report.html              plots and tables for staff
    DIR/batch.json               how the batch was run (seed, options, isolation)
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Iterable

from grader.harness.faults import ImportFault, MissingFault, NotImplementedFault
from grader.harness.impl import DOES_NOT_COMPILE, NOT_IN_SUBMISSION
from grader.harness.parts import PARTS
from grader.outcomes import DID_NOT_RUN, NOT_SELECTED
from grader.rubric import Rubric
from grader.scoring import ISOLATION_MISSING, PENDING, UPLOAD, SubmissionResult

NOT_IMPLEMENTED = NotImplementedFault.kind  # the failure kind of a stub not yet written
NOT_LOADED = (ImportFault.kind, MissingFault.kind)  # a module that does not import, a name it does not define
OUTPUT_LIMIT = 8000  # characters of output shown per test on Gradescope
PRINTED_LIMIT = 4000  # characters of what the code printed shown on Gradescope
# Said under a failed public test while its example stays hidden (``hide_examples``)
EXAMPLE_LATER = ("The graded example it failed on, and what your code did with it, are shown below, "
                 "under \"{name}: the failing example\", when grades are published: every submission is graded on the "
                 "same examples, so they stay hidden until then. Your public tests check the same things on examples "
                 "of their own: `pytest -x {path}` shows one that fails.")
# Said under a public test that could not load what it asked (``NOT_LOADED``): there is no example to wait for
LOAD_AT_HOME = "Your public tests import the same module: `pytest -x {path}` shows what went wrong{later}."


def gradescope(result: SubmissionResult, *, hide_examples: bool = False) -> dict:
    """Gradescope's results.json. ``hide_examples``: a failed public test says what failed (``summary``) and
    not on which example, nor anything the submission's code sent back, until grades are published (the
    whole message goes to an entry shown then). For a grading seed used again for every resubmission, as
    on Gradescope: otherwise each resubmission would show one more graded example and its expected answer,
    and code can put every input it was given into what it returns or raises."""
    tests = []
    later = []
    for t in result.tests:
        name = f"Part {t.part} · {t.name}"
        entry = {
            "name": name,
            "number": f"{t.part}.{len([x for x in tests if x['_part'] == t.part]) + 1}",
            "score": t.points,
            "max_score": t.max_points,
            "visibility": "after_published" if t.hidden else "visible",
            "tags": [f"part{t.part}"] + (["hidden"] if t.hidden else []),
            "_part": t.part,
        }
        if t.status == PENDING:
            entry["name"] = f"{name} [pending: needs a GPU]"
            entry["max_score"] = 0.0
            points = f"{t.max_points:g} point{'' if t.max_points == 1 else 's'}"
            entry["output"] = (f"Not graded yet: this test needs a CUDA GPU. Its {points} "
                               f"{'is' if t.max_points == 1 else 'are'} left out of this score and added by a later "
                               "GPU pass.")
        else:
            entry["status"] = "passed" if t.status == "passed" else "failed"
            withheld = t.message and hide_examples and not t.hidden and t.status != "passed"
            if withheld and t.kind == NOT_IMPLEMENTED:
                # a stub: no example to wait for; the summary, which names the function the test asked
                entry["output"] = (t.summary or f"[Part {t.part}] {t.name}\n{NOT_IMPLEMENTED}")[:OUTPUT_LIMIT]
            elif withheld and t.kind in NOT_LOADED:
                # nothing loaded, no example either: the summary, with what the grader found in the file itself
                # (a missing file, a syntax error's line), and what the import said once grades are published
                # (code run at import may say anything it read)
                # (a module that does not compile raised nothing of its own: the summary says all)
                raised = t.kind == ImportFault.kind and DOES_NOT_COMPILE not in t.summary
                whole = f"Part {t.part}: why the import failed"
                home = "" if NOT_IN_SUBMISSION in t.summary else "\n" + LOAD_AT_HOME.format(  # (at home it is)
                    path=f"tests/{t.test.split('::')[0]}",
                    later=f"; what the import said is shown below, under \"{whole}\", when grades are "
                          "published" if raised else "")
                entry["output"] = ((t.summary or f"[Part {t.part}] {t.name}\n{t.kind}") + home)[:OUTPUT_LIMIT]
                if raised and not any(e["name"] == whole for e in later):  # once a part: the same import
                    later.append({"name": whole, "score": 0.0, "max_score": 0.0,
                                  "visibility": "after_published", "output": t.message[:OUTPUT_LIMIT]})
            elif withheld and t.summary == t.message:  # its summary is all of it (a refusal read from the source)
                entry["output"] = t.message[:OUTPUT_LIMIT]
            elif withheld and t.kind != DID_NOT_RUN:
                what = t.summary or f"[Part {t.part}] {t.name}\nfailed ({t.kind})"
                entry["output"] = (what + "\n" + EXAMPLE_LATER.format(
                    name=name, path=f"tests/{t.test.split('::')[0]}"))[:OUTPUT_LIMIT]
                later.append({"name": f"{name}: the failing example", "score": 0.0, "max_score": 0.0,
                              "visibility": "after_published", "output": t.message[:OUTPUT_LIMIT]})
            elif t.message:
                entry["output"] = t.message[:OUTPUT_LIMIT]
        tests.append(entry)
    for entry in tests:
        del entry["_part"]
    tests += later
    summary = [f"Score: {result.score:g} / {result.max_score:g}"]
    if result.pending_points:
        summary.append(f"{result.pending_points:g} points pending a GPU run (not counted yet).")
    if result.error:
        summary.append(result.error)
    summary += [f"Note: {note.removeprefix(UPLOAD + ': ')}" for note in result.notes if note.startswith(UPLOAD + ": ")]
    if result.output.strip():
        # what the code printed includes what the hidden tests asked it: shown with them, once published
        summary.append("What your code printed while it was graded is shown below, under \"What your code "
                       "printed\", when grades are published (run the public tests to see your prints now).")
        tests.append({"name": f"What your code printed (its first {PRINTED_LIMIT} characters)", "score": 0.0,
                      "max_score": 0.0, "visibility": "after_published", "output": result.output[:PRINTED_LIMIT]})
    missing = [note for note in result.notes if note.startswith(ISOLATION_MISSING)]
    if missing:  # instructors only: the grader's own statement, where it cannot go unread
        tests.append({"name": "For staff: this submission ran with less of its sandbox than it should (no points)",
                      "score": 0.0, "max_score": 0.0, "visibility": "hidden",
                      "output": ("Its workers could read more of the machine than the allow-list; read its code "
                                 "and grade it again where namespaces work (README, 'Isolation').\n"
                                 + "\n".join(missing))[:OUTPUT_LIMIT]})
    if result.review:  # instructors only ("hidden": never shown to the student), and worth nothing
        tests.append({"name": "For staff: where this code reads the machine it runs on (no points)", "score": 0.0,
                      "max_score": 0.0, "visibility": "hidden", "output": review_text(result.review)[:OUTPUT_LIMIT]})
    return {
        "score": result.score,
        "execution_time": round(result.seconds, 1),
        "output": "\n".join(summary),
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
    }


def review_text(review: Iterable[str]) -> str:
    return ("Not a score. Code that reads the machine, the process or the interpreter it runs in can tell it is "
            "graded and behave only then, which no test can see; read these places by hand (an honest use is "
            "possible, e.g. torch.get_num_threads() handed to a benchmark timer):\n" + "\n".join(review))


def write_student(out: Path, result: SubmissionResult, *, hide_examples: bool = False) -> Path:
    folder = out / result.student
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "results.json").write_text(json.dumps(gradescope(result, hide_examples=hide_examples), indent=1))
    (folder / "grading.json").write_text(json.dumps(result.to_dict(), indent=1))
    return folder


def read_results(folder: Path) -> list[SubmissionResult]:
    out = []
    for path in sorted(Path(folder).glob("*/grading.json")):
        out.append(SubmissionResult.from_dict(json.loads(path.read_text())))
    return out


def write_csv(results: Iterable[SubmissionResult], rubric: Rubric, path: Path,
              submitters: dict[str, str] | None = None) -> None:
    """``submitters``: who made each submission, by id (a Gradescope export's metadata), as a last column."""
    results = list(results)
    parts = list(PARTS)
    header = ["student", "total", "max", "pending"] + [f"part{n}" for n in parts] \
        + [item.test for item in rubric.items] + ["error", "review", "upload"] + (["submitters"] if submitters else [])
    with open(path, "w", newline="", encoding="utf-8", errors="replace") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        for r in results:
            scores = r.part_scores()
            by_test = {t.test: t for t in r.tests}
            row = [r.student, _num(r.score), _num(r.max_score), _num(r.pending_points)]
            # a cell of a test the run's own selection left out (-m, -k: a GPU pass) is blank, not a 0 that reads
            # as a failure; so is a part none of whose tests it selected
            left_out = _unselected_parts(r)  # (a part whose only test it kept is a pending cuda one among them)
            row += [_num(scores.get(n, (0.0, 0.0))[0]) if n not in left_out else "" for n in parts]
            for item in rubric.items:
                t = by_test.get(item.test)
                row.append("pending" if t is not None and t.status == PENDING else
                           "" if t is not None and t.message == NOT_SELECTED else _num(t.points if t else 0.0))
            row.append(_text(r.error.splitlines()[0]) if r.error else "")
            row.append(_text("; ".join(r.review)))
            row.append(_text(r.upload))
            if submitters:
                row.append(_text(submitters.get(r.student, "")))
            writer.writerow(row)


def _text(cell: str) -> str:
    """A cell of text no spreadsheet reads as a formula (an error may quote a submission's own names)."""
    return f"'{cell}" if cell[:1] in ("=", "+", "-", "@", "\t", "\r") else cell


def _num(x: float) -> str:
    return f"{x:g}"


def harness_error_note(results: Iterable[SubmissionResult]) -> str | None:
    """A warning for the end of a run when any test failed through the grader's own fault: those tests
    scored 0, which the table alone would show as the students' (a GPU pass whose device broke, say)."""
    hit: dict[str, int] = {}
    for result in results:
        for test in result.tests:
            if test.kind == "harness error":
                hit[test.name] = hit.get(test.name, 0) + 1
    if not hit:
        return None
    named = ", ".join(f"{name} ({count})" for name, count in sorted(hit.items())[:5])
    more = f" and {len(hit) - 5} more" if len(hit) > 5 else ""
    return (f"WARNING: {len(hit)} test(s) failed with a harness error, the grader's fault and not the "
            f"submission's, and scored 0 until graded again; each with the submissions it hit: {named}{more}; "
            "report.html says why")


def table(results: Iterable[SubmissionResult]) -> str:
    """The per-part score table printed at the end of a run."""
    results = list(results)
    parts = list(PARTS)
    width = max([len("student")] + [len(r.student) for r in results])
    head = f"{'student':<{width}}  {'total':>9}  " + " ".join(f"{'P' + str(n):>4}" for n in parts) + "   time  note"
    lines = [head, "-" * len(head)]
    left_out = False
    for r in results:
        scores, unselected = r.part_scores(), _unselected_parts(r)
        left_out = left_out or bool(unselected)
        cells = " ".join(f"{'-' if n in unselected else _num(scores.get(n, (0, 0))[0]):>4}" for n in parts)
        total = f"{_num(r.score)}/{_num(r.max_score)}"
        note = r.error.splitlines()[0][:60] if r.error else (
            f"{_num(r.pending_points)} pts pending GPU" if r.pending_points else "")
        lines.append(f"{r.student:<{width}}  {total:>9}  {cells}  {r.seconds:5.1f}s  {note}")
    if results:  # every submission is graded against the same rubric: the maxima of one that was graded (a
        # refused one's count the pending tests in)
        most = next((r for r in results if not r.error), results[0]).part_scores()
        lines.append(f"{'(out of)':<{width}}  {'':>9}  "
                     + " ".join(f"{_num(most.get(n, (0, 0))[1]):>4}" for n in parts))
    if left_out:
        lines.append("-: a part this run did not select (-m, -k), 0 in the total; `python -m grader merge` "
                     "joins the runs")
    return "\n".join(lines)


def _unselected_parts(result: SubmissionResult) -> set[int]:
    """The parts none of whose tests this run selected (every one "did not run", left out by -m or -k)."""
    selected = {t.part for t in result.tests if t.message != NOT_SELECTED and t.status != PENDING}
    return {t.part for t in result.tests} - selected
