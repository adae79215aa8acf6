"""Staff check: the student handout, built for real and used as a student would.

The handout is built (once, shared with the other self-tests that replay its
recordings), a fresh virtual environment is made from its own README's
instructions, and then:
* it holds only public files, nothing of the reference's code or docstrings and
  nothing of the judges' code;
* answers to fixed-input questions are recorded only as digests;
* no function the handout ships passes the graded tests of a spec function it
  fits (``selftest/solution_proof.py``): nothing a student receives solves them;
* the stubs fail every test with "not implemented" and no harness error;
* the reference, copied into the handout's assignment/, passes every test;
* a submission that only looks answers up in the recordings passes the
  handout's tests but fails grading (another seed, more examples).
"""

from __future__ import annotations

import ast
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from grader.harness import wire
from grader.harness.impl import MODULES, pinned_distributions
from selftest.grading import grade, written
from selftest.grading import handout as shared_handout

ROOT = Path(__file__).resolve().parent.parent
ALLOWED_TOP = {"assignment", "grader", "tests", "conftest.py", "pyproject.toml", "requirements.txt",
               "README.md", "SPEC.md", ".gitignore"}


@pytest.fixture(scope="module")
def handout(tmp_path_factory) -> Path:
    """A private copy of the shared handout: a student's runs write into it."""
    return copy_of(shared_handout(), tmp_path_factory.mktemp("h") / "handout")


@pytest.fixture(scope="module")
def python(handout, tmp_path_factory) -> Path:
    """A fresh virtual environment, made exactly as the handout's README says."""
    readme = (handout / "README.md").read_text()
    assert "python3 -m venv .venv" in readme and "pip install -r requirements.txt" in readme
    venv = tmp_path_factory.mktemp("venv") / ".venv"
    subprocess.run([shutil.which("python3") or sys.executable, "-m", "venv", str(venv)], check=True)
    # (--no-compile: pip's bytecode for every file installed, torch's thousands, is half of the install's time;
    # the student's runs below write it for what they import, as a student's Python does)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--no-compile", "-r", "requirements.txt"],
                   cwd=handout, check=True, capture_output=True, timeout=1200)
    return venv / "bin" / "python"


# a student's environment: Python writes bytecode (some CI images say not to)
AS_A_STUDENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_tests(python: Path, folder: Path, *extra: str, said: list[str] | None = None) -> dict[str, tuple[str, str]]:
    """pytest in ``folder``: test id -> (outcome, message); what it printed is added to ``said``."""
    report = folder.parent / f"{folder.name}-report.xml"
    done = subprocess.run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}",
                           *extra], cwd=folder, capture_output=True, text=True, timeout=900, env=AS_A_STUDENT)
    if said is not None:
        said.append(done.stdout + done.stderr)
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
                           r"grader/handout|grader/batch|grader/gradescope|grader/judges|staff_plugin|"
                           r"autograder-data|hidden)")
    assert [f for f in files if forbidden.search(f)] == []
    assert (handout / "tests" / "recorded").is_dir()
    # what grading installs, for the home import check (never the student's copy of requirements.txt)
    manifest = json.loads((handout / "tests" / "recorded" / "manifest.json").read_text())
    assert manifest["requirements"] == pinned_distributions(ROOT / "requirements.txt")


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
    names = {p.name for p in (handout / "tests" / "recorded").iterdir()}
    assert names == {"examples.json.gz", "answers.json.gz", "stubs.json.gz", "manifest.json"}
    for path in (handout / "tests" / "recorded").glob("*.json.gz"):
        json.loads(gzip.decompress(path.read_bytes()))  # JSON, nothing else
    # a staff recording's hashes of the files it was made from are not the handout's (the reference's among them)
    assert "files" not in json.loads((handout / "tests" / "recorded" / "manifest.json").read_text())


def _leaves(value):
    """The leaves of an answer as the wire writes it, but for digests, dict keys and field names."""
    if isinstance(value, dict):
        tag = next(iter(value), None)
        if tag == "$digest":
            return
        if tag == "$t":
            yield from _leaves(value[tag])
        elif tag in ("$d", "$dc", "$nt"):
            for _, item in value["fields" if tag != "$d" else "$d"]:
                yield from _leaves(item)
        else:
            yield value
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


SECRET = ("dtypes.float_format", "dtypes.FP4_E2M1", "dtypes.bytes_per_element", "dtypes.nvfp4_values",
          "roofline.PEAK_FLOPS_PER_SEC", "roofline.HBM_BYTES_PER_SEC", "part05.promised")


def test_fixed_input_answers_are_recorded_as_digests_only(handout):
    answers = json.loads(gzip.decompress((handout / "tests" / "recorded" / "answers.json.gz").read_bytes()))["answers"]
    secret = {key: text for key, text in answers.items() if any(f'"{name}"' in key for name in SECRET)}
    assert len(secret) >= 15
    for key, text in secret.items():
        value = json.loads(text)["$d"]  # the outcome: a dict crossing as {"$d": [[key, value], ...]}
        found = dict((k, v) for k, v in value)["value"]
        # the structure stays (a table's keys, a record's field names), every value is a digest
        assert list(_leaves(found)) == [], (key, list(_leaves(found)))


def proof(handout: Path, out: Path, *extra: str, env: dict | None = None) -> dict:
    run = subprocess.run([sys.executable, "-m", "selftest.solution_proof", str(handout), str(out), *extra],
                         cwd=ROOT, capture_output=True, text=True, timeout=1200, env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(out.read_text())


def test_nothing_the_handout_ships_solves_a_graded_function(handout, tmp_path):
    """Every function of the harness, the strategies and the tests' helpers, tried in place of every
    graded function it fits, fails that function's public tests."""
    found = proof(handout, tmp_path / "proof.json")
    assert found["solutions"] == []
    assert found["tried"] > 2000 and len(found["functions"]) >= 40


PLANTED = """
def _breaks_the_process(shape):
    import time

    def broken():
        raise RuntimeError("a clock a candidate broke")

    time.perf_counter = time.monotonic = broken  # every test after this candidate fails, whatever is tried
    return ()


def _row_major(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))
"""


def test_the_proof_finds_a_planted_solution(handout, tmp_path):
    """A solution among the candidates is found, even tried after a candidate that broke the process."""
    (tmp_path / "planted_helpers.py").write_text(PLANTED)
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    found = proof(handout, tmp_path / "planted.json", "--only", "strides.contiguous_strides", "--extra",
                  "planted_helpers", env=env)
    assert [(s["function"], s["candidate"]) for s in found["solutions"]] == [
        ("strides.contiguous_strides", "planted_helpers._row_major")]
    assert found["split"] == ["strides.contiguous_strides"]  # the reference failed after the candidates


# --------------------------------------------------------------------------- as a student
def test_the_stubs_fail_every_test_as_not_implemented(handout, python, tmp_path):
    results = run_tests(python, copy_of(handout, tmp_path / "stubs"))
    assert len(results) > 50
    wrong = {k: v for k, v in results.items()
             if v[0] != "skipped" and not (v[0] == "failure" and v[1].startswith("not implemented: "))}
    assert wrong == {}


# a self-check the handout's README invites (run by `python strides.py`, never by the tests): at home, where
# the files are read as they are, it must not read as reaching into other code (graded, staging blanks it)
SELF_CHECK = '\n\nif __name__ == "__main__":\n    import doctest\n\n    doctest.testmod()\n    pdb.set_trace()\n' \
    '    breakpoint()\n'


def test_the_reference_in_the_handout_passes_every_test(handout, python, tmp_path):
    folder = copy_of(handout, tmp_path / "with_reference")
    for path in (ROOT / "reference").glob("*.py"):
        shutil.copy(path, folder / "assignment" / path.name)
    strides = folder / "assignment" / "strides.py"
    strides.write_text(strides.read_text().replace("import annotations\n", "import annotations\n\nimport pdb\n", 1)
                       + SELF_CHECK)
    said: list[str] = []
    results = run_tests(python, folder, said=said)
    assert {k: v for k, v in results.items() if v[0] not in ("passed", "skipped")} == {}
    assert "warning" not in said[0].lower(), said[0][-3000:]  # a passing run says nothing else


def test_an_edited_test_file_says_so_and_never_reads_green(handout, python, tmp_path):
    """A student who renames a test, or edits one of its examples, replays nothing recorded for it: the
    renamed test fails (it was skipped, and a run read green) and the edited example says the test file
    was edited, with what to do (it read as a harness fault to report, with a remedy only staff have)."""
    folder = copy_of(handout, tmp_path / "edited")
    for path in (ROOT / "reference").glob("*.py"):
        shutil.copy(path, folder / "assignment" / path.name)
    tests = folder / "tests" / "test_part01_strides.py"
    text = tests.read_text()
    assert "@example(shape=(3, 4))" in text and "def test_flat_index(" in text
    tests.write_text(text.replace("@example(shape=(3, 4))", "@example(shape=(3, 5))")
                     .replace("def test_flat_index(", "def test_flat_index_mine("))
    said: list[str] = []
    results = run_tests(python, folder, "tests/test_part01_strides.py", said=said)
    assert results["tests.test_part01_strides::test_flat_index_mine"][0] == "failure"
    assert results["tests.test_part01_strides::test_contiguous_strides"][0] == "failure"
    assert "test_flat_index_mine: no recorded examples for this test" in said[0], said[0][-3000:]
    assert "no recorded answer for this input: was the test file edited?" in said[0], said[0][-3000:]


LOOKUP = '''
_TABLE = {table!r}


def answer(function, *args):
    if repr((function, *args)) not in _TABLE:
        raise ValueError("this input is not in my table")
    return _TABLE[repr((function, *args))]
'''
STRIDES = ["contiguous_strides", "flat_index", "is_contiguous", "transpose", "slice_view", "view_strides"]


def lookup_submission(handout: Path, into: Path) -> Path:
    """Part 1 answered purely from the handout's recorded answers."""
    answers = json.loads(gzip.decompress((handout / "tests" / "recorded" / "answers.json.gz").read_bytes()))
    # decoded here, into plain Python: a submission that imported the harness to decode them is refused
    table = {repr(wire.decode(k)[1]): wire.decode(v)["value"] for k, v in answers["answers"].items()
             if '"strides.' in k}
    assert table
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
