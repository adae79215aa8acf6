"""The rubric: points per graded test, read from ``rubric.toml`` (staff side)."""

from __future__ import annotations

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


@cache
def load(path: Path = RUBRIC_FILE) -> Rubric:
    return parse(Path(path).read_text())

