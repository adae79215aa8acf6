"""Build the student handout from this staff repository.

    python -m grader handout --out DIR [--seed S]

The handout holds: the ``assignment/`` stubs, the public graded tests and their
strategies, the public harness (``grader/harness``: the door, the messages, the
probes, the judges' declarations), the recorded oracle (``tests/recorded``), a
root ``conftest.py``, a ``pyproject.toml``, ``requirements.txt`` and a student
README. It holds nothing of ``reference/``, ``tests/hidden``, ``mutants/``, the
judges' code (``grader/judges``), the staff grader (isolation, batch grading,
rubric, this builder) or the grading seed: files are copied from an allow-list,
never by excluding what looks secret.

The recorded oracle: the public tests are run once against the reference under
the ``record`` hypothesis profile with the builder's seed; every example drawn
and every answer the reference gave is stored (gzip'd wire-format JSON, no
pickles), except that questions with a fixed set of inputs (the datasheet
tables, ``nvfp4_values``...) keep only a salted digest of each answer
(``grader.harness.digest``). In the handout each test replays its recorded
examples, simplest first, so students still see the smallest recorded failing
input, their answer and (but for those digests) the expected one. Grading
ignores these recordings: it uses its own seed and more examples.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from grader.harness.parts import PARTS
from grader.rubric import load as load_rubric

ROOT = Path(__file__).resolve().parent.parent
STUDENT_README = Path(__file__).with_name("handout_README.md")

# Everything the handout contains, relative to the staff repo (directories are copied whole, .py only).
PUBLIC_DIRS = ("assignment", "grader/harness", "tests/strategies")
PUBLIC_FILES = ("SPEC.md", "conftest.py", "requirements.txt", "grader/__init__.py", "tests/__init__.py")


def public_test_files(root: Path = ROOT) -> list[Path]:
    return sorted(p for p in (root / "tests").glob("test_part*.py"))


def build(out: Path, *, seed: int, root: Path = ROOT, record: bool = True) -> Path:
    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for rel in PUBLIC_DIRS:
        for path in sorted((root / rel).rglob("*.py")):
            _copy(path, out / path.relative_to(root))
    for rel in PUBLIC_FILES:
        _copy(root / rel, out / rel)
    for path in public_test_files(root):
        _copy(path, out / path.relative_to(root))
    (out / "pyproject.toml").write_text(_pyproject(root))
    (out / "README.md").write_text(_readme())
    (out / ".gitignore").write_text(".venv/\n__pycache__/\n.hypothesis/\n.pytest_cache/\n*.zip\n")
    if record:
        record_oracle(out / "tests" / "recorded", seed=seed, root=root)
    return out


def _copy(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)


def record_oracle(into: Path, *, seed: int, root: Path = ROOT) -> None:
    """Run the public tests against the reference, recording examples and answers (digests for fixed inputs)."""
    from grader.command import pytest_args

    into.mkdir(parents=True, exist_ok=True)
    # a process of its own: a recording run loads its own hypothesis profile, globally
    with tempfile.TemporaryDirectory() as scratch:
        run = subprocess.run(
            [sys.executable, "-m", "pytest",
             *pytest_args(public_test_files(root), profile="record", seed=seed, select="not cuda",
                          impl="reference", record_to=into, digests=True),
             f"--basetemp={scratch}"],
            cwd=root, capture_output=True, text=True,
        )
    if run.returncode != 0:
        raise RuntimeError("recording the oracle failed: the reference does not pass its own "
                           f"tests:\n{run.stdout[-4000:]}\n{run.stderr[-2000:]}")


def _pyproject(root: Path) -> str:
    staff = (root / "pyproject.toml").read_text()
    start = staff.index("[tool.pytest.ini_options]")
    return (
        '[project]\nname = "resource-accounting-assignment"\nversion = "1.0"\n'
        'requires-python = ">=3.11"\n\n' + staff[start:]
    )


def _readme() -> str:
    rubric = load_rubric()
    rows = []
    for number, part in PARTS.items():
        public = sum(i.points for i in rubric.items if i.part == number and not i.hidden)
        hidden = rubric.part_total(number) - public
        on_gpu = sum(i.points for i in rubric.items if i.part == number and "cuda" in i.name)
        extra = f", {on_gpu:g} of them on a GPU" if on_gpu else ""
        extra += f" (+{hidden:g} in hidden tests)" if hidden else ""
        rows.append(f"| {number} | `assignment/{part.module}.py` | {part.title} | {public:g}{extra} |")
    total = sum(i.points for i in rubric.items)
    gpu = sum(i.points for i in rubric.items if "cuda" in i.name)
    return (STUDENT_README.read_text().replace("{{PARTS_TABLE}}", "\n".join(rows))
            .replace("{{TOTAL}}", f"{total:g}").replace("{{GPU_POINTS}}", f"{gpu:g}")
            .replace("{{CPU_POINTS}}", f"{total - gpu:g}"))


def main(args: argparse.Namespace) -> int:
    out = build(Path(args.out), seed=args.seed)
    files = sum(1 for p in out.rglob("*") if p.is_file())
    print(f"wrote the handout to {out} ({files} files); publish it as the students' starter repository")
    if warning := load_rubric().warning():  # its README states the points: a number changed by hand would ship
        print(warning, file=sys.stderr)  # unsaid
    return 0
