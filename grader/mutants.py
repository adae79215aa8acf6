"""Mutants: plausible student bugs, as small edits of the reference (staff side).

A mutant is a file ``mutants/partNN_<what>.py`` that states the one change it
makes against the reference module it targets, ``reference/<TARGET>.py``:

    '''Column-major strides: the first dim gets stride 1 (Fortran order), as if counting from the left.'''
    TARGET = "strides"
    REPLACE = [
        ("for d in range(len(shape) - 1, -1, -1):", "for d in range(len(shape)):"),
    ]

* The docstring's first line says which bug it models (messages quote it).
* ``REPLACE`` lists ``(old, new)`` exact-text replacements, applied in order.
  Each ``old`` must occur exactly once in the module when it is applied: an
  edit of the reference that moves or duplicates it then stops materialising
  with an error, instead of patching the wrong place or nothing.
* ``APPEND`` is code appended to the module after the replacements (later
  definitions win), for a bug that needs code the reference has no place for:
  a new helper, a different algorithm. Prefer ``REPLACE``.

A mutant has ``REPLACE``, ``APPEND`` or both. These names and ``TARGET`` are
read with ``ast.literal_eval``: the file is never imported.

A file with neither is appended whole, as all mutants once were; only the
hostile submissions of ``selftest/hostile/`` (attack code appended to
``strides.py``) still use that form.

The self-test ``selftest/test_mutant_patches.py`` checks every patch applies;
``selftest/test_graded_suite.py`` grades every mutant and requires it to fail at
least one test of its own part and no test of any other part.
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
    source: str  # code appended to the target module: APPEND, or a legacy file's whole text ("" if none)
    replace: tuple[tuple[str, str], ...] = ()  # (old, new) exact-text replacements, applied first


def _literals(path: Path, tree: ast.Module) -> dict[str, object]:
    """The module-level ``TARGET``, ``REPLACE`` and ``APPEND``, as Python values."""
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name) and t.id in ("TARGET", "REPLACE", "APPEND"):
                    try:
                        found[t.id] = ast.literal_eval(node.value)
                    except (ValueError, TypeError, SyntaxError):
                        raise ValueError(f"{path.name}: {t.id} must be a literal") from None
    return found


def _replacements(path: Path, value: object) -> tuple[tuple[str, str], ...]:
    pairs = tuple(value) if isinstance(value, (list, tuple)) else None
    if not pairs or not all(isinstance(p, tuple) and len(p) == 2 and all(isinstance(s, str) for s in p)
                            for p in pairs):
        raise ValueError(f"{path.name}: REPLACE must be a non-empty list of (old, new) string pairs")
    for old, new in pairs:
        if not old or old == new:
            raise ValueError(f"{path.name}: REPLACE pair {old!r} changes nothing")
    return pairs


def load(path: Path) -> Mutant:
    path = Path(path)
    match = _NAME.match(path.stem)
    if not match:
        raise ValueError(f"{path.name}: mutant files are named partNN_<what>.py")
    source = path.read_text()
    tree = ast.parse(source)
    docstring = (ast.get_docstring(tree) or "").strip()
    description = docstring.splitlines()[0] if docstring else ""
    values = _literals(path, tree)
    target = values.get("TARGET")
    part = int(match.group(1))
    if target not in MODULES or PARTS[part].module != target:
        raise ValueError(f"{path.name}: TARGET must be {PARTS[part].module!r}, the module of part {part}")
    if not description:
        raise ValueError(f"{path.name}: start with a docstring saying which bug this is")
    if "REPLACE" not in values and "APPEND" not in values:
        return Mutant(path.stem, part, target, description, source)  # legacy: the whole file is appended
    replace = _replacements(path, values["REPLACE"]) if "REPLACE" in values else ()
    append = values.get("APPEND", "")
    if not isinstance(append, str) or ("REPLACE" not in values and not append.strip()):
        raise ValueError(f"{path.name}: APPEND must be a string of code")
    return Mutant(path.stem, part, target, description, append, replace)


def discover(folder: Path = MUTANTS_DIR) -> list[Mutant]:
    return [load(p) for p in sorted(Path(folder).glob("part*.py"))]


def patched(mutant: Mutant, reference: Path = REFERENCE_DIR) -> str:
    """The text of the mutant's target module: the reference's, replaced, then appended to."""
    text = (Path(reference) / f"{mutant.target}.py").read_text()
    for old, new in mutant.replace:
        count = text.count(old)
        if count != 1:
            where = "is not" if count == 0 else f"occurs {count} times"
            raise ValueError(f"mutant {mutant.name}: REPLACE text {where} in {mutant.target}.py "
                             f"(it must occur exactly once): {old!r}")
        text = text.replace(old, new)
    if mutant.source:
        text += f"\n\n# ---- mutant {mutant.name} ----\n" + mutant.source
    return text


def changed_names(mutant: Mutant, reference: Path = REFERENCE_DIR) -> set[str]:
    """The module-level names whose definitions the mutant changes or adds; "" where it changes other
    module-level code (a statement run at import), which any function, or another module, may meet."""
    def definitions(text: str) -> dict[str, str]:
        found: dict[str, str] = {"": ""}
        for node in ast.parse(text).body:
            targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found[node.name] = ast.dump(node)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and all(isinstance(t, ast.Name) for t in targets):
                found.update((t.id, ast.dump(node)) for t in targets)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):  # binds its names (a module's import is its own)
                found.update(((a.asname or a.name.split(".")[0]), ast.dump(node)) for a in node.names)
            else:
                found[""] += ast.dump(node)
        return found

    before = definitions((Path(reference) / f"{mutant.target}.py").read_text())
    after = definitions(patched(mutant, reference))
    return {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}


def packed(chosen: list[Mutant]) -> list[list[Mutant]]:
    """The mutants in as few submissions as can hold them, at most one a part in each, in the order given: each
    part asks its own module alone (``selftest/test_graded_suite.py::test_each_part_stands_alone``), so each part
    of a submission grades as its mutant alone would. A mutant that changes a module's code run at import (which
    may reach past its module) is a submission of its own."""
    alone = {mutant.name: "" in changed_names(mutant) for mutant in chosen}  # read once: parsing is most of it
    packs: list[list[Mutant]] = []
    for mutant in chosen:
        room = next((p for p in packs if not alone[mutant.name] and all(m.part != mutant.part and not alone[m.name]
                                                                        for m in p)), None)
        if room is None:
            packs.append([mutant])
        else:
            room.append(mutant)
    return packs


def materialize(mutant: Mutant, into: Path, reference: Path = REFERENCE_DIR) -> Path:
    """Write the mutant as a submission folder ``into/assignment/``; returns ``into``."""
    return materialize_together([mutant], into, reference, others=reference)


def materialize_together(chosen: list[Mutant], into: Path, reference: Path = REFERENCE_DIR, *,
                         others: Path = REFERENCE_DIR) -> Path:
    """Several mutants (of different modules, ``packed``) as one submission folder ``into/assignment/``, every
    other module taken from ``others`` (the reference's, or the stubs' of ``assignment/``); returns ``into``."""
    texts = {mutant.target: patched(mutant, reference) for mutant in chosen}  # first: a bad patch writes nothing
    package = materialize_reference(into, others) / "assignment"
    for target, text in texts.items():
        (package / f"{target}.py").write_text(text)
    return Path(into)


def materialize_reference(into: Path, reference: Path = REFERENCE_DIR) -> Path:
    """The reference itself as a submission folder (what an honest, perfect student hands in)."""
    package = Path(into) / "assignment"
    package.mkdir(parents=True, exist_ok=True)
    for path in Path(reference).glob("*.py"):
        shutil.copyfile(path, package / path.name)
    return Path(into)
