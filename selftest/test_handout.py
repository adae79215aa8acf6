"""Staff check: the student handout, built for real and used as a student would.

The handout is built into a temporary folder, a fresh virtual environment is
made from its own README's instructions, and then:
* it holds only public files, and nothing of the reference's code or docstrings;
* the stubs fail every test with "not implemented" and no harness error;
* the reference, copied into the handout's assignment/, passes every test;
* a submission that only looks answers up in the recordings passes the
  handout's tests but fails grading (live reference, another seed).
"""

from __future__ import annotations

import ast
import gzip
import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from grader.handout import build
from grader.harness.impl import MODULES
from selftest.grading import grade, written

ROOT = Path(__file__).resolve().parent.parent
ALLOWED_TOP = {"assignment", "grader", "tests", "conftest.py", "pyproject.toml", "requirements.txt",
               "README.md", "SPEC.md", ".gitignore"}


@pytest.fixture(scope="module")
def handout(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("h") / "handout", seed=5)


@pytest.fixture(scope="module")
def python(handout, tmp_path_factory) -> Path:
    """A fresh virtual environment, made exactly as the handout's README says."""
    readme = (handout / "README.md").read_text()
    assert "python3 -m venv .venv" in readme and "pip install -r requirements.txt" in readme
    venv = tmp_path_factory.mktemp("venv") / ".venv"
    subprocess.run([shutil.which("python3") or sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "-r", "requirements.txt"],
                   cwd=handout, check=True, capture_output=True, timeout=1200)
    return venv / "bin" / "python"


def run_tests(python: Path, folder: Path, *extra: str) -> dict[str, tuple[str, str]]:
    """pytest in ``folder``: test id -> (outcome, message)."""
    report = folder / "report.xml"
    subprocess.run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}", *extra],
                   cwd=folder, capture_output=True, text=True, timeout=900)
    results = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        name = f"{case.get('classname')}::{case.get('name')}"
        outcome, message = "passed", ""
        for tag in ("failure", "error", "skipped"):
            node = case.find(tag)
            if node is not None:
                outcome, message = tag, node.get("message", "")
        results[name] = (outcome, message)
    return results


def copy_of(handout: Path, into: Path) -> Path:
    shutil.copytree(handout, into, ignore=shutil.ignore_patterns(".venv", "__pycache__", ".hypothesis"))
    return into


# --------------------------------------------------------------------------- what is inside
def test_only_public_files(handout):
    files = [p.relative_to(handout).as_posix() for p in handout.rglob("*") if p.is_file()]
    assert {f.split("/")[0] for f in files} <= ALLOWED_TOP
    assert not [f for f in files if f.endswith((".pyc", ".toml")) and f != "pyproject.toml"]
    forbidden = re.compile(r"(^reference/|^mutants/|^selftest/|tests/hidden/|grader/isolation/|grader/rubric|"
                           r"grader/handout|grader/batch|grader/gradescope|grading_seed|hidden)")
    assert [f for f in files if forbidden.search(f)] == []
    assert (handout / "tests" / "recorded").is_dir()


def _reference_fingerprints() -> list[str]:
    """What would give the reference away: its functions' docstrings, whole bodies, long statements.

    Short generic lines are left out on purpose: ``rows = rng.integers(0, len(data),
    size=batch_size)`` is in the spec itself, and the probes build the same
    layer shapes as the model they stand in for.
    """
    prints = []
    for module in MODULES:
        tree = ast.parse((ROOT / "reference" / f"{module}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node)
                if doc and len(doc) > 60:
                    prints.append(doc.strip().splitlines()[0])
                body = [st for st in node.body if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant))]
                if len(body) >= 3:
                    prints.append("\n".join(ast.unparse(st) for st in body))
                for statement in body:
                    text = ast.unparse(statement)
                    if len(text) >= 60 and "NotImplementedError" not in text:
                        prints.append(text)
    return prints


def test_no_reference_code_or_docstring_anywhere(handout):
    stubs = {m: ast.unparse(ast.parse((ROOT / "assignment" / f"{m}.py").read_text())) for m in MODULES}
    texts = []
    for path in handout.rglob("*"):
        if path.suffix == ".py":
            texts.append(ast.unparse(ast.parse(path.read_text())))
        elif path.name.endswith(".json.gz"):
            texts.append(gzip.decompress(path.read_bytes()).decode())
        elif path.is_file():
            texts.append(path.read_text(errors="replace"))
    blob = "\n".join(texts)
    stub_blob = "\n".join(stubs.values())
    leaked = [p for p in _reference_fingerprints() if p in blob and p not in stub_blob]
    assert leaked == []


def test_recordings_are_plain_json_not_pickles(handout):
    for path in (handout / "tests" / "recorded").glob("*.json.gz"):
        data = json.loads(gzip.decompress(path.read_bytes()))
        assert set(data) <= {"cases", "answers"}


# --------------------------------------------------------------------------- as a student
def test_the_stubs_fail_every_test_as_not_implemented(handout, python):
    results = run_tests(python, handout)
    assert len(results) > 50
    wrong = {k: v for k, v in results.items()
             if v[0] != "skipped" and not (v[0] == "failure" and v[1].startswith("not implemented: "))}
    assert wrong == {}


def test_the_reference_in_the_handout_passes_every_test(handout, python, tmp_path):
    folder = copy_of(handout, tmp_path / "with_reference")
    for path in (ROOT / "reference").glob("*.py"):
        shutil.copy(path, folder / "assignment" / path.name)
    results = run_tests(python, folder)
    assert {k: v for k, v in results.items() if v[0] not in ("passed", "skipped")} == {}


LOOKUP = '''
from grader.harness import wire

_TABLE = {table!r}


def answer(function, *args):
    text = _TABLE.get(wire.canonical_key("call", (function, *args)))
    if text is None:
        raise ValueError("this input is not in my table")
    return wire.decode(text)["value"]
'''
STRIDES = ["contiguous_strides", "flat_index", "is_contiguous", "transpose", "slice_view", "view_strides"]


def lookup_submission(handout: Path, into: Path) -> Path:
    """Part 1 answered purely from the handout's recorded answers."""
    answers = json.loads(gzip.decompress((handout / "tests" / "recorded" / "answers.json.gz").read_bytes()))
    table = {k: v for k, v in answers["answers"].items() if '"strides.' in k}
    package = into / "assignment"
    package.mkdir(parents=True)
    for module in MODULES:
        shutil.copy(ROOT / "assignment" / f"{module}.py", package / f"{module}.py")
    (package / "__init__.py").write_text("")
    (package / "_table.py").write_text(LOOKUP.format(table=table))
    (package / "strides.py").write_text("from ._table import answer\n\n" + "\n".join(
        f"def {name}(*args):\n    return answer('strides.{name}', *args)\n" for name in STRIDES))
    return into


def test_a_lookup_table_passes_the_handout_but_fails_grading(handout, python, tmp_path):
    folder = copy_of(handout, tmp_path / "lookup_handout")
    lookup_submission(handout, tmp_path / "lookup")
    shutil.copytree(tmp_path / "lookup" / "assignment", folder / "assignment", dirs_exist_ok=True)
    public = run_tests(python, folder, "-m", "part1")
    assert public and all(v[0] == "passed" for v in public.values()), public

    out = tmp_path / "graded"
    grade(str(tmp_path / "lookup"), "--single", "--out", str(out), "-m", "part1", "-j", "1", "--seed", "99")
    graded = written(out)["lookup"]
    part1 = [t for t in graded["tests"] if t["part"] == 1]
    assert [t["test"] for t in part1 if t["status"] == "passed"] == []
