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

from dataclasses import asdict, dataclass, field
from typing import Any, Iterable

from grader.outcomes import FAILED, PASSED, PENDING, TestOutcome
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

    @property
    def name(self) -> str:
        return self.test.rsplit("::", 1)[-1]


@dataclass(frozen=True)
class SubmissionResult:
    student: str
    tests: tuple[ScoredTest, ...]
    seconds: float
    error: str = ""  # whole-submission problem (does not import, grading crashed)
    output: str = ""  # what the submission printed, capped
    notes: tuple[str, ...] = field(default_factory=tuple)

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
        )


def score(student: str, outcomes: Iterable[TestOutcome], rubric: Rubric, *, seconds: float,
          error: str = "", output: str = "", notes: Iterable[str] = ()) -> SubmissionResult:
    seen = {o.test: o for o in outcomes}
    tests = []
    for item in rubric.items:
        outcome = seen.get(item.test)
        if outcome is None:
            outcome = TestOutcome(item.test, FAILED, "did not run",
                                  error or "this test did not run (the grading run stopped early)")
        earned = item.points if outcome.status == PASSED else 0.0
        tests.append(ScoredTest(
            test=item.test, part=item.part, points=earned, max_points=item.points,
            status=outcome.status, kind=outcome.kind, message=outcome.message,
            hidden=item.hidden, seconds=round(outcome.seconds, 3),
        ))
    extra = sorted(set(seen) - {i.test for i in rubric.items})
    notes = tuple(notes) + tuple(f"test {t} is not in the rubric; ignored" for t in extra)
    return SubmissionResult(student, tuple(tests), round(seconds, 3), error, output, notes)


def merge(cpu: SubmissionResult, gpu: SubmissionResult) -> SubmissionResult:
    """A CPU pass with a later GPU pass: each pending test takes the GPU pass's result."""
    gpu_tests = {t.test: t for t in gpu.tests}
    tests = []
    for t in cpu.tests:
        other = gpu_tests.get(t.test)
        tests.append(other if t.status == PENDING and other is not None and other.status != PENDING else t)
    return SubmissionResult(
        cpu.student, tuple(tests), cpu.seconds + gpu.seconds, cpu.error or gpu.error,
        cpu.output, cpu.notes + tuple(n for n in gpu.notes if n not in cpu.notes),
    )


__all__ = ["ScoredTest", "SubmissionResult", "score", "merge", "PASSED", "FAILED", "PENDING"]
