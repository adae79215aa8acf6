"""The assignment's ten parts: number, module, title."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Part:
    number: int
    module: str
    title: str

    @property
    def marker(self) -> str:
        return f"part{self.number}"

    @property
    def label(self) -> str:
        return f"Part {self.number} ({self.module})"


PARTS: dict[int, Part] = {
    p.number: p
    for p in (
        Part(1, "strides", "Storage, strides, views"),
        Part(2, "dtypes", "Number formats"),
        Part(3, "memory", "Memory ledgers"),
        Part(4, "flops", "FLOP accounting"),
        Part(5, "roofline", "MFU and arithmetic intensity"),
        Part(6, "named", "einops and jaxtyping"),
        Part(7, "gradients", "Gradients by hand"),
        Part(8, "model", "Linear and Cruncher"),
        Part(9, "training", "Data, loop, checkpoints"),
        Part(10, "mixed_precision", "Autocast"),
    )
}

_FILE = re.compile(r"test_part(\d\d)_")


def part_of_path(path: str) -> Part | None:
    """The part a test file belongs to, from its name: ``test_part01_strides.py`` -> Part 1."""
    match = _FILE.search(path.replace("\\", "/").rsplit("/", 1)[-1])
    return PARTS.get(int(match.group(1))) if match else None


def test_id(nodeid: str) -> str:
    """pytest node id -> the test's id everywhere else (rubric keys, recordings):
    relative to ``tests/``, without parameters."""
    nodeid = nodeid.replace("\\", "/").split("[", 1)[0]
    return nodeid.removeprefix("tests/")
