"""The rubric: points per graded test, read from ``rubric.toml`` (staff side)."""

from __future__ import annotations

import ast
import hashlib
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from grader.harness.parts import PARTS, part_of_path, test_id  # noqa: F401 - rubric keys are test ids

RUBRIC_FILE = Path(__file__).with_name("rubric.toml")
TOTAL_POINTS = 100.0


@dataclass(frozen=True)
class Item:
    test: str  # id relative to tests/, e.g. "test_part01_strides.py::test_view_strides"
    part: int
    points: float
    hidden: bool

    @property
    def name(self) -> str:
        return self.test.rsplit("::", 1)[-1]

    @property
    def visibility(self) -> str:
        """Gradescope visibility: hidden tests show once grades are published."""
        return "after_published" if self.hidden else "visible"


@dataclass(frozen=True)
class Rubric:
    items: tuple[Item, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_test", {i.test: i for i in self.items})

    def get(self, test: str) -> Item | None:
        return self._by_test.get(test)  # type: ignore[attr-defined]

    def by_part(self) -> dict[int, tuple[Item, ...]]:
        return {n: tuple(i for i in self.items if i.part == n) for n in PARTS}

    @property
    def total(self) -> float:
        return sum(i.points for i in self.items)

    def part_total(self, part: int) -> float:
        return sum(i.points for i in self.items if i.part == part)

    def departures(self) -> list[str]:
        """Where the points leave the course's plan (100 in all, Parts 1-5 and 6-10 worth 50 each, every part
        something): a number changed by hand that grading, the handout and the Gradescope zip would otherwise
        carry on with silently (``selftest/test_rubric.py`` holds the plan too)."""
        out = []
        if self.total != TOTAL_POINTS:
            out.append(f"its points add up to {self.total:g}, not {TOTAL_POINTS:g}")
        halves = [sum(self.part_total(n) for n in PARTS if first <= n <= last) for first, last in ((1, 5), (6, 10))]
        if halves != [TOTAL_POINTS / 2] * 2:
            out.append(f"Parts 1-5 are worth {halves[0]:g} and Parts 6-10 {halves[1]:g}, not {TOTAL_POINTS / 2:g} each")
        empty = [n for n in PARTS if self.part_total(n) <= 0]
        if empty:
            out.append("no points for Part " + ", ".join(map(str, empty)))
        return out

    def warning(self) -> str:
        """One line on the departures, "" where there are none."""
        found = self.departures()
        return f"WARNING: the rubric ({RUBRIC_FILE.name}): {'; '.join(found)}" if found else ""


def parse(text: str) -> Rubric:
    data = tomllib.loads(text)
    items = []
    for test, points in data.get("tests", {}).items():
        part = part_of_path(test.split("::", 1)[0])
        if part is None:
            raise ValueError(f"rubric entry {test!r}: file name must start with test_partNN_")
        if not isinstance(points, (int, float)) or isinstance(points, bool) or points < 0:
            raise ValueError(f"rubric entry {test!r}: points must be a non-negative number")
        items.append(Item(test=test, part=part.number, points=float(points), hidden=test.startswith("hidden/")))
    return Rubric(tuple(items))


def file_hash(path: Path = RUBRIC_FILE) -> str:
    """A short hash of the rubric's file: a batch keeps it, and a merge says where the points have changed since."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


@cache
def load(path: Path = RUBRIC_FILE) -> Rubric:
    return parse(Path(path).read_text())


@cache
def cuda_tests(tests: Path) -> frozenset[str]:
    """The ids of the tests marked ``@pytest.mark.cuda`` under ``tests``, read from the files (nothing collected or
    imported): what waits for a GPU pass where a submission could not even be run."""
    found = set()
    for path in sorted(Path(tests).rglob("test_part*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and any(
                    ast.unparse(d.func if isinstance(d, ast.Call) else d) == "pytest.mark.cuda"
                    for d in node.decorator_list):
                found.add(f"{path.relative_to(tests).as_posix()}::{node.name}")
    return frozenset(found)
