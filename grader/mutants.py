"""Mutants: plausible student bugs, as small edits of the reference (staff side).

A mutant is a file ``mutants/partNN_<what>.py``: a docstring that says which
bug it models, ``TARGET = "<module>"``, and replacement definitions. It is
materialised as a submission by copying the reference package and appending the
mutant's source to the target module, so later definitions win:

    '''Column-major strides: the first dim gets stride 1.'''
    TARGET = "strides"

    def contiguous_strides(shape): ...

The self-test (selftest/test_mutants.py) grades every mutant and requires it to
fail at least one test of its own part and no test of any other part.
"""

from __future__ import annotations

import ast
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from grader.harness.impl import MODULES
from grader.harness.parts import PARTS

ROOT = Path(__file__).resolve().parent.parent
MUTANTS_DIR = ROOT / "mutants"
REFERENCE_DIR = ROOT / "reference"

_NAME = re.compile(r"^part(\d\d)_[a-z0-9_]+$")


@dataclass(frozen=True)
class Mutant:
    name: str
    part: int
    target: str
    description: str
    source: str


def load(path: Path) -> Mutant:
    match = _NAME.match(path.stem)
    if not match:
        raise ValueError(f"{path.name}: mutant files are named partNN_<what>.py")
    source = path.read_text()
    tree = ast.parse(source)
    description = (ast.get_docstring(tree) or "").strip().splitlines()[0] if ast.get_docstring(tree) else ""
    target = None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "TARGET" for t in node.targets):
            target = ast.literal_eval(node.value)
    part = int(match.group(1))
    if target not in MODULES or PARTS[part].module != target:
        raise ValueError(f"{path.name}: TARGET must be {PARTS[part].module!r}, the module of part {part}")
    if not description:
        raise ValueError(f"{path.name}: start with a docstring saying which bug this is")
    return Mutant(path.stem, part, target, description, source)


def discover(folder: Path = MUTANTS_DIR) -> list[Mutant]:
    return [load(p) for p in sorted(Path(folder).glob("part*.py"))]


def materialize(mutant: Mutant, into: Path, reference: Path = REFERENCE_DIR) -> Path:
    """Write the mutant as a submission folder ``into/assignment/``; returns ``into``."""
    package = Path(into) / "assignment"
    package.mkdir(parents=True, exist_ok=True)
    for path in reference.glob("*.py"):
        shutil.copyfile(path, package / path.name)
    target = package / f"{mutant.target}.py"
    target.write_text(target.read_text() + f"\n\n# ---- mutant {mutant.name} ----\n" + mutant.source)
    return Path(into)


def materialize_reference(into: Path, reference: Path = REFERENCE_DIR) -> Path:
    """The reference itself as a submission folder (what an honest, perfect student hands in)."""
    package = Path(into) / "assignment"
    package.mkdir(parents=True, exist_ok=True)
    for path in reference.glob("*.py"):
        shutil.copyfile(path, package / path.name)
    return Path(into)
