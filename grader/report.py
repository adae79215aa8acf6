"""report.html: the batch at a glance for staff, and what the students got wrong.

Python gathers the figures; the markup is a Jinja2 template (``templates/report.html.j2``,
with the SVG plots as macros in ``templates/plots.html.j2``). Autoescape is on
everywhere: student ids, failure messages and plot labels are student-controlled
text and must never become markup.

What the page shows:
* the score histogram, the pass rate of every part and every test, the grading time
  of every submission, one row per submission;
* per test, the most common kinds of failure: failures are grouped by their kind and
  their problem line with the values taken out, so one bug shows once with the number
  of students who have it and the smallest input that shows it;
* first, the tests to look at before publishing grades: a test nobody passed, or one
  with a harness error for anyone.

Pending tests (cuda tests on a machine without a GPU) are not failures: they are left
out of pass rates and flags, and listed as pending a GPU pass.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Iterable

import jinja2

from grader.harness.parts import PARTS
from grader.outcomes import DID_NOT_RUN
from grader.rubric import Item, Rubric
from grader.scoring import PASSED, PENDING, ScoredTest, SubmissionResult

TEMPLATES = Path(__file__).with_name("templates")
GROUPS_SHOWN = 3  # kinds of failure shown per test; the rest are summed up in one line
TIMES_SHOWN = 60  # submissions in the grading-time plot: beyond that, the slowest


# --------------------------------------------------------------------------- failures
@dataclass(frozen=True)
class Failure:
    student: str
    kind: str
    problem: str  # the message's problem line, e.g. "strides.view_strides: wrong value"
    input: str  # what the "input:" line shows, "" when there is none
    message: str


@dataclass(frozen=True)
class FailureGroup:
    """Students whose failures of one test read the same once the values are taken out."""

    kind: str
    problem: str  # the problem line of the example
    input: str  # the smallest input seen in the group
    example: str  # the whole message whose input that is
    students: tuple[str, ...]

    @property
    def count(self) -> int:
        return len(self.students)


_HEADER = re.compile(r"^\[[^\]\n]*\]\s+\S+$")  # "[Part 1 (strides)] test_view_strides"
_INPUT = re.compile(r"^[ \t]*input:[ \t]*(.*)$", re.M)  # not \s: it spans lines, quadratic on blank ones
_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")
_DIMENSIONS = re.compile(r"\b\d+(?:x\d+)+\b")  # "6x16", as torch's shape errors write them
# possessive: a run of digits is never taken back a digit at a time to try the lookahead again (a class
# name of 4,000 digits and a letter took half a second a failure, quadratic in its length)
_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d++(?:\.\d*+)?|\.\d++)(?:e[-+]?\d++)?+(?![\w])", re.I)
_SEQUENCE = re.compile(r"([(\[])\s*#(?:\s*,\s*#)*\s*,?\s*([)\]])")  # (#, #, #) -> (…), whatever its length


def problem_line(message: str, test_name: str = "") -> str:
    """The line that says what went wrong: the first after the header, or pytest's "E" line."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    if lines and (_HEADER.match(lines[0]) or lines[0] == test_name):
        lines = lines[1:]
    raised = [line for line in lines if line.startswith("E ")]  # a raw pytest traceback
    return (raised[0][1:].strip() if raised else lines[0]) if lines else ""


def input_line(message: str) -> str:
    match = _INPUT.search(message)
    return match.group(1).strip() if match else ""


KEY_READS = 2000  # characters of a problem line read for its key: a submission's text may be long


def failure_key(kind: str, problem: str) -> tuple[str, str]:
    """The same bug reads the same for every student once numbers and quoted values are gone:
    "timed out after 10 s in f" and "... 20 s in f" group together, so do two shapes."""
    text = _QUOTED.sub("'…'", problem[:KEY_READS])  # the key keeps 200 characters of what is left
    text = _DIMENSIONS.sub("#x#", text)
    text = _NUMBER.sub("#", text)
    text = _SEQUENCE.sub(r"\1…\2", text)
    return kind, " ".join(text.split())[:200]


def _smallest(failures: list[Failure]) -> Failure:
    """The failure to show for a group: the one with the shortest input (ids break ties)."""
    return min(failures, key=lambda f: (f.input == "", len(f.input), f.input, f.student))


def group_failures(failures: Iterable[Failure]) -> list[FailureGroup]:
    """Most common first; a student counts once per group."""
    groups: dict[tuple[str, str], list[Failure]] = defaultdict(list)
    for failure in failures:
        groups[failure_key(failure.kind, failure.problem)].append(failure)
    out = []
    for members in groups.values():
        example = _smallest(members)
        out.append(FailureGroup(example.kind, example.problem, example.input, example.message,
                                tuple(sorted({f.student for f in members}))))
    return sorted(out, key=lambda g: (-g.count, g.kind, g.problem))


# --------------------------------------------------------------------------- per test
@dataclass(frozen=True)
class TestSummary:
    __test__ = False  # a record, not a test class for pytest to collect

    item: Item
    passed: int
    graded: int  # outcomes that are not pending
    ran: int  # graded outcomes that are verdicts: neither pending nor "did not run"
    pending: int
    harness_errors: int  # submissions for which the test itself failed
    groups: tuple[FailureGroup, ...]

    @property
    def label(self) -> str:
        return f"P{self.item.part} {self.item.name}" + (" (hidden)" if self.item.hidden else "")

    @property
    def rate(self) -> float | None:
        """Percent of graded submissions that passed; None for a test waiting for a GPU pass."""
        if self.waiting:
            return None
        return 100.0 * self.passed / self.graded if self.graded else 0.0

    @property
    def waiting(self) -> bool:
        """Pending for every submission whose run reached it (a run that crashed never got to skip it)."""
        return self.ran == 0 and self.pending > 0

    @property
    def never_passed(self) -> bool:
        """Verdicts, and not one pass: a test to look at (a harness error, if any, says more)."""
        return self.ran > 0 and self.passed == 0

    @property
    def never_ran(self) -> bool:
        """Every run stopped before this test, and it was pending nowhere: a test to look at too."""
        return self.graded > 0 and self.ran == 0 and self.pending == 0

    @property
    def failed(self) -> int:
        return self.graded - self.passed

    @property
    def has_verdict_failures(self) -> bool:
        """Failed for some reason of the test's own, not only because runs stopped before it."""
        return self.ran > self.passed

    @property
    def stopped(self) -> tuple[str, ...]:
        """Students whose run stopped before this test."""
        return tuple(s for g in self.groups if g.kind == DID_NOT_RUN for s in g.students)

    @property
    def shown(self) -> tuple[FailureGroup, ...]:
        return self.groups[:GROUPS_SHOWN]

    @property
    def rest(self) -> tuple[FailureGroup, ...]:
        return self.groups[GROUPS_SHOWN:]

    @property
    def rest_by_kind(self) -> list[tuple[str, int]]:
        """The groups not shown, summed by kind, most first: groups of one kind differ only in the line
        that says what failed, and "did not run ×1, did not run ×1" told nothing."""
        counts: Counter[str] = Counter()
        for group in self.rest:
            counts[group.kind] += group.count
        return counts.most_common()


def summarise(results: Iterable[SubmissionResult], rubric: Rubric) -> list[TestSummary]:
    """One summary per rubric test, in rubric order."""
    by_test: dict[str, list[tuple[str, ScoredTest]]] = defaultdict(list)
    for result in results:
        for t in result.tests:
            by_test[t.test].append((result.student, t))
    return [_summary(item, by_test.get(item.test, [])) for item in rubric.items]


def _summary(item: Item, seen: list[tuple[str, ScoredTest]]) -> TestSummary:
    graded = [t for _, t in seen if t.status != PENDING]
    failed = [Failure(student, t.kind, problem_line(t.message, item.name), input_line(t.message), t.message)
              for student, t in seen if t.status not in (PASSED, PENDING)]
    return TestSummary(
        item=item,
        passed=sum(t.status == PASSED for t in graded),
        graded=len(graded),
        ran=sum(t.kind != DID_NOT_RUN for t in graded),
        pending=len(seen) - len(graded),
        harness_errors=sum(t.kind == "harness error" for t in graded),
        groups=tuple(group_failures(failed)),
    )


# --------------------------------------------------------------------------- plots
@dataclass(frozen=True)
class BarRow:
    label: str
    y: float
    length: float
    text: str  # the value as shown at the bar's end
    look: str  # CSS class: "" | "warn" (a test to look at) | "pending" (no bar to draw)


@dataclass(frozen=True)
class BarChart:
    width: int
    height: int
    label_width: int
    row_height: int
    rows: tuple[BarRow, ...]


def bar_chart(bars: list[tuple[str, float | None]], *, max_value: float, unit: str = "", digits: str = ".3g",
              warn: Iterable[int] = (), width: int = 760, row_height: int = 16) -> BarChart:
    """Horizontal bars; a value of None draws no bar and reads "pending"."""
    warn = set(warn)
    label_width = min(380, max([len(label) for label, _ in bars] + [4]) * 7 + 10)
    plot = width - label_width - 110
    rows = []
    for i, (label, value) in enumerate(bars):
        length = 0.0 if value is None or max_value <= 0 else plot * min(value, max_value) / max_value
        text = "pending a GPU pass" if value is None else f"{value:{digits}}{unit}"
        look = "pending" if value is None else "warn" if i in warn else ""
        rows.append(BarRow(label, 5 + i * row_height, round(length, 1), text, look))
    return BarChart(width, row_height * len(rows) + 10, label_width, row_height, tuple(rows))


@dataclass(frozen=True)
class Column:
    x: float
    width: float
    height: float
    count: int
    tick: str  # the score at the column's left edge


@dataclass(frozen=True)
class Histogram:
    width: int
    height: int
    base: int  # y of the axis
    columns: tuple[Column, ...]
    top: str


def histogram(scores: list[float], top: float, *, bins: int = 10, width: int = 540, height: int = 180) -> Histogram:
    counts = Counter(min(int(s / top * bins), bins - 1) if top > 0 else 0 for s in scores)
    most = max(counts.values(), default=1)
    column = (width - 50) / bins
    base = height - 25
    columns = tuple(
        Column(round(30 + b * column, 1), round(column - 2, 1), round((height - 45) * counts.get(b, 0) / most, 1),
               counts.get(b, 0), f"{top * b / bins:g}")
        for b in range(bins)
    )
    return Histogram(width, height, base, columns, f"{top:g}")


# --------------------------------------------------------------------------- page
@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["g"] = lambda x: f"{x:g}"
    return env


def _part_rates(results: list[SubmissionResult]) -> list[tuple[str, float | None]]:
    """Percent of points earned per part; None for a part whose graded points are all pending."""
    bars = []
    for number, part in PARTS.items():
        got = sum(r.part_scores().get(number, (0.0, 0.0))[0] for r in results)
        most = sum(r.part_scores().get(number, (0.0, 0.0))[1] for r in results)
        pending = any(t.part == number and t.status == PENDING for r in results for t in r.tests)
        if most:
            bars.append((f"Part {number} · {part.title}", 100.0 * got / most))
        else:
            bars.append((f"Part {number} · {part.title}", None if pending else 0.0))
    return bars


def _times(results: list[SubmissionResult]) -> tuple[BarChart, int]:
    """The grading time of each submission, slowest first; beyond TIMES_SHOWN, only the slowest."""
    shown = sorted(results, key=lambda r: (-r.seconds, r.student))[:TIMES_SHOWN]
    most = max([r.seconds for r in results] + [1.0])
    chart = bar_chart([(r.student, r.seconds) for r in shown], max_value=most, unit=" s", digits=".1f")
    return chart, len(results) - len(shown)


def render(results: Iterable[SubmissionResult], rubric: Rubric, *, title: str = "Grading report",
           notes: Iterable[str] = ()) -> str:
    results = sorted(results, key=lambda r: r.student)
    scores = [r.score for r in results]
    top = max([r.max_score for r in results] + [1.0])
    tests = summarise(results, rubric)
    flagged = [i for i, t in enumerate(tests) if t.never_passed or t.never_ran or t.harness_errors]
    times, times_left_out = _times(results)
    return _environment().get_template("report.html.j2").render(
        title=title,
        notes=list(notes),
        results=results,
        parts=PARTS,
        top=top,
        mean=statistics.fmean(scores) if scores else 0.0,
        median=statistics.median(scores) if scores else 0.0,
        errors=[r for r in results if r.error],
        reviewed=[r for r in results if r.review],
        pending_points=max([r.pending_points for r in results] + [0.0]),
        harness=[t for t in tests if t.harness_errors],
        never=[t for t in tests if t.never_passed and not t.harness_errors],
        unreached=[t for t in tests if t.never_ran],
        pending=[t for t in tests if t.pending],
        failing=[t for t in tests if t.has_verdict_failures],
        # one line for the tests that failed only because runs stopped (a crash repeats in every later test)
        stopped_only=[t for t in tests if t.groups and not t.has_verdict_failures],
        stopped_students=sorted({s for t in tests if not t.has_verdict_failures for s in t.stopped}),
        histogram=histogram(scores, top),
        part_chart=bar_chart(_part_rates(results), max_value=100, unit="%"),
        test_chart=bar_chart([(t.label, t.rate) for t in tests], max_value=100, unit="%", warn=flagged),
        time_chart=times,
        times_left_out=times_left_out,
    )


def write(results: Iterable[SubmissionResult], rubric: Rubric, path: Path, **kwargs) -> None:
    # errors="replace": text that slipped past ``printable`` costs a character, never the report
    Path(path).write_text(render(results, rubric, **kwargs), encoding="utf-8", errors="replace")
