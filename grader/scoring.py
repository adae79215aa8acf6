"""From test outcomes to a score: the rubric applied, in the trusted process only.

Rules:
* a passed test earns its points; anything else earns 0;
* a test in the rubric that never reported (crash, collection error, a test
  deselected) counts as failed with "did not run": its points stay in the maximum;
* a pending test (cuda on a machine without a GPU) is left out of this run's
  maximum, and listed as pending, until a GPU pass is merged in;
* an outcome for a test not in the rubric is ignored (and reported to staff).
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, astuple, dataclass, field
from typing import Any, Iterable

from grader.outcomes import DID_NOT_RUN, FAILED, PASSED, PENDING, TestOutcome
from grader.rubric import Rubric


@dataclass(frozen=True)
class ScoredTest:
    test: str
    part: int
    points: float  # earned
    max_points: float
    status: str  # passed | failed | pending
    kind: str
    message: str
    hidden: bool
    seconds: float
    summary: str = ""  # what failed, without the example (``TestOutcome.summary``)

    @property
    def name(self) -> str:
        return self.test.rsplit("::", 1)[-1]


# how a result's note begins where a worker of it ran with less of its sandbox than it should (written by
# grader.session, shown to instructors alone by grader.outputs)
ISOLATION_MISSING = "isolation MISSING"
UPLOAD = "the upload"  # a note for the student too: which of two copies of the code was graded


@dataclass(frozen=True)
class SubmissionResult:
    student: str
    tests: tuple[ScoredTest, ...]
    seconds: float
    error: str = ""  # whole-submission problem (does not import, grading crashed)
    output: str = ""  # what the submission printed, capped
    notes: tuple[str, ...] = field(default_factory=tuple)
    # for staff to read by hand, never a score: reads of where the code runs (grader/review.py)
    review: tuple[str, ...] = field(default_factory=tuple)
    # Where the time went (staff and benchmarks). Not part of the result: two runs that scored the
    # same are equal however long they took, and the result stays hashable.
    timing: dict[str, float] = field(default_factory=dict, compare=False, hash=False)
    # the name of the folder or zip the submission came as: its id is made of it, but a name of other letters
    # (李雷) or one shared (alice smith, alice_smith) gets a hash, and staff must find the upload again
    upload: str = ""

    @property
    def score(self) -> float:
        return sum(t.points for t in self.tests)

    @property
    def max_score(self) -> float:
        return sum(t.max_points for t in self.tests if t.status != PENDING)

    @property
    def pending_points(self) -> float:
        return sum(t.max_points for t in self.tests if t.status == PENDING)

    def part_scores(self) -> dict[int, tuple[float, float]]:
        out: dict[int, tuple[float, float]] = {}
        for t in self.tests:
            got, most = out.get(t.part, (0.0, 0.0))
            out[t.part] = (got + t.points, most + (0.0 if t.status == PENDING else t.max_points))
        return out

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["tests"] = [asdict(t) for t in self.tests]
        d["notes"] = list(self.notes)
        d["review"] = list(self.review)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "SubmissionResult":
        return cls(
            student=str(d["student"]),
            tests=tuple(ScoredTest(**t) for t in d["tests"]),
            seconds=float(d["seconds"]),
            error=str(d.get("error", "")),
            output=str(d.get("output", "")),
            notes=tuple(d.get("notes", ())),
            review=tuple(d.get("review", ())),
            timing={str(k): float(v) for k, v in dict(d.get("timing") or {}).items()},
            upload=str(d.get("upload", "")),
        )


def score(student: str, outcomes: Iterable[TestOutcome], rubric: Rubric, *, seconds: float,
          error: str = "", output: str = "", notes: Iterable[str] = (), review: Iterable[str] = (),
          timing: dict[str, float] | None = None, upload: str = "") -> SubmissionResult:
    seen = {o.test: o for o in outcomes}
    tests = []
    for item in rubric.items:
        outcome = seen.get(item.test)
        if outcome is None:
            outcome = TestOutcome(item.test, FAILED, DID_NOT_RUN,
                                  error or "this test did not run (the grading run stopped early)")
        earned = item.points if outcome.status == PASSED else 0.0
        tests.append(ScoredTest(
            test=item.test, part=item.part, points=earned, max_points=item.points,
            status=outcome.status, kind=outcome.kind, message=outcome.message,
            hidden=item.hidden, seconds=round(outcome.seconds, 3), summary=outcome.summary,
        ))
    extra = sorted(set(seen) - {i.test for i in rubric.items})
    notes = tuple(notes) + tuple(NOT_IN_RUBRIC.format(t) for t in extra)
    return SubmissionResult(student, tuple(tests), round(seconds, 3), error, output, notes, tuple(review),
                            dict(timing or {}), upload)


NOT_IN_RUBRIC = "test {} is not in the rubric; ignored"
_NOT_IN_RUBRIC = re.compile(re.escape(NOT_IN_RUBRIC).replace(r"\{\}", "(.+)"))


def unscored_tests(results: Iterable[SubmissionResult]) -> list[str]:
    """Tests that ran for some submission and have no points in the rubric (a test added, its entry
    forgotten): a batch says so once, where each student's notes alone hid it."""
    return sorted({m.group(1) for r in results for note in r.notes if (m := _NOT_IN_RUBRIC.fullmatch(note))})


# --------------------------------------------------------------------------- merging runs
# How much a test's result says about the student's code, lowest first. Merging keeps, per test, the
# result that says the most, so the order of the runs cannot matter: a CPU pass has the cuda tests
# pending and a GPU pass (``-m cuda``) has every other test "did not run" (or absent); each fills in
# the other. A "did not run" beats a pending: a run meant to run the test stopped before it.
# A harness error is the grader's fault: any verdict from another run is better.
PENDING_RANK, DID_NOT_RUN_RANK, HARNESS_RANK, VERDICT_RANK = range(4)


def is_verdict(t: ScoredTest) -> bool:
    """Whether the test ran to a pass or a fail of the student's (not an error of ours, not pending or skipped)."""
    return _rank(t) == VERDICT_RANK


def _rank(t: ScoredTest) -> int:
    if t.status == PENDING:
        return PENDING_RANK
    if t.kind == DID_NOT_RUN:
        return DID_NOT_RUN_RANK
    return HARNESS_RANK if t.kind == "harness error" else VERDICT_RANK


def _best(tests: list[ScoredTest]) -> ScoredTest:
    """The result that says the most. Two verdicts only overlap when a submission was graded twice
    (same seed, same inputs): they differ only where the machine did (a timeout under load), so the
    better one counts. Last, a fixed order on the records, so that no tie depends on the runs' order."""
    return max(tests, key=lambda t: (_rank(t), t.points, t.status == PASSED, astuple(t)))


def _disagreement(tests: list[ScoredTest], kept: ScoredTest) -> str:
    """A note for staff when two runs gave different verdicts on one test."""
    verdicts = {t.status for t in tests if _rank(t) == VERDICT_RANK}
    return f"test {kept.test}: runs disagree (passed and failed); kept {kept.status}" if len(verdicts) > 1 else ""


def _test_order(runs: tuple[SubmissionResult, ...]) -> list[str]:
    """Every test of every run, in the order of the fullest run (rubric order), then any others by name."""
    fullest = max(runs, key=lambda r: (len(r.tests), [t.test for t in r.tests]))
    order = [t.test for t in fullest.tests]
    return order + sorted({t.test for r in runs for t in r.tests} - set(order))


def merge(*runs: SubmissionResult) -> SubmissionResult:
    """One submission's runs (a CPU and a GPU pass, a re-run) as one result, whatever their order.

    Per test, the result that says the most wins (see ``_rank``): a verdict beats a harness error,
    which beats "did not run", which beats pending; of two verdicts, the better. Seconds add up,
    notes are joined, and a whole-submission error stays only if every run had one: a run that
    got through shows the submission can be graded. What the submission printed comes from the
    run with the most verdicts.
    """
    if not runs:
        raise ValueError("merge needs at least one run")
    if len({r.student for r in runs}) > 1:
        raise ValueError(f"cannot merge different students: {sorted({r.student for r in runs})}")
    if len(runs) == 1:
        return runs[0]
    by_test: dict[str, list[ScoredTest]] = {}
    for run in runs:
        for t in run.tests:
            by_test.setdefault(t.test, []).append(t)
    tests = [_best(by_test[name]) for name in _test_order(runs)]
    disagreements = {_disagreement(by_test[t.test], t) for t in tests} - {""}
    errors = sorted({r.error for r in runs})
    printed = max(runs, key=lambda r: (sum(_rank(t) == VERDICT_RANK for t in r.tests), r.output)).output
    return SubmissionResult(
        student=runs[0].student,
        tests=tuple(tests),
        seconds=round(math.fsum(r.seconds for r in runs), 3),  # fsum: exact, so the same in any order
        error="\n".join(errors) if all(r.error for r in runs) else "",
        output=printed,
        notes=tuple(sorted({n for r in runs for n in r.notes} | disagreements)),
        review=tuple(sorted({line for r in runs for line in r.review})),
        upload=min((r.upload for r in runs if r.upload), default=""),  # (in any order of the runs, the same)
    )


__all__ = ["ScoredTest", "SubmissionResult", "score", "merge", "is_verdict", "PASSED", "FAILED", "PENDING"]
