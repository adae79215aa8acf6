"""Staff check: every mutant is a patch that applies to the reference (fast: nothing is graded or run).

For each file of ``mutants/``: it states its change as ``REPLACE`` and/or
``APPEND`` (not as a whole appended file); every replaced text occurs exactly
once in ``reference/<TARGET>.py``; the patched module compiles and is not the
reference's; every other module of the materialised package is the reference's,
byte for byte. Whether each mutant is caught is selftest/test_graded_suite.py's job.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from grader import mutants

ROOT = Path(__file__).resolve().parent.parent
PATHS = sorted(mutants.MUTANTS_DIR.glob("part*.py"))
HOSTILE = sorted((ROOT / "selftest" / "hostile").glob("part*.py"))


def _assigned(path: Path) -> set[str]:
    """Names the file assigns at module level."""
    return {t.id for node in ast.parse(path.read_text()).body if isinstance(node, ast.Assign)
            for t in node.targets if isinstance(t, ast.Name)}


def _code(text: str) -> str:
    """A module's code, without comments or layout."""
    return ast.dump(ast.parse(text))


def _reference(module: str) -> str:
    return (mutants.REFERENCE_DIR / f"{module}.py").read_text()


def _assert_rest_is_reference(package: Path, target: str) -> None:
    names = sorted(p.name for p in mutants.REFERENCE_DIR.glob("*.py"))
    assert sorted(p.name for p in package.iterdir()) == names
    for name in names:
        if name != f"{target}.py":
            assert (package / name).read_bytes() == (mutants.REFERENCE_DIR / name).read_bytes(), name


def test_discover_finds_every_mutant_file():
    assert len(PATHS) >= 30
    assert [m.name for m in mutants.discover()] == [p.stem for p in PATHS]


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_mutant_is_a_patch_of_the_reference(path, tmp_path):
    mutant = mutants.load(path)
    # the whole-file form is for the hostile submissions only
    assert _assigned(path) & {"REPLACE", "APPEND"}, f"{path.name}: state the change as REPLACE or APPEND"
    reference = _reference(mutant.target)
    for old, _ in mutant.replace:
        assert reference.count(old) == 1, f"{path.name}: {old!r} occurs {reference.count(old)} times"

    mutants.materialize(mutant, tmp_path)
    patched = (tmp_path / "assignment" / f"{mutant.target}.py").read_text()
    compile(patched, f"{mutant.target}.py", "exec")
    assert _code(patched) != _code(reference), f"{path.name} changes no code"
    _assert_rest_is_reference(tmp_path / "assignment", mutant.target)


def _write(folder: Path, body: str) -> Path:
    path = folder / "part01_example.py"
    path.write_text(f'"""An example bug."""\nTARGET = "strides"\n{body}')
    return path


@pytest.mark.parametrize("old, problem", [
    ("for d in range(len(shape) + 1):", "is not in strides.py"),  # not in the reference
    ("if not shape:  # a 0-d tensor", "occurs 2 times in strides.py"),  # in transpose and in view_strides
])
def test_a_replacement_must_match_exactly_once(tmp_path, old, problem):
    mutant = mutants.load(_write(tmp_path, f"REPLACE = [({old!r}, 'pass')]\n"))
    with pytest.raises(ValueError, match=re.escape(f"mutant part01_example: REPLACE text {problem}")) as error:
        mutants.materialize(mutant, tmp_path / "out")
    assert repr(old) in str(error.value)
    assert not (tmp_path / "out").exists()  # no half-written submission


@pytest.mark.parametrize("body", [
    "REPLACE = ['for d in range']\n",  # not an (old, new) pair
    "REPLACE = []\n",
    "REPLACE = [('step = 1', 'step = 1')]\n",  # changes nothing
    "APPEND = 42\n",
    "REPLACE = [(OLD, 'x')]\n",  # not a literal
])
def test_a_malformed_patch_is_refused_at_load(tmp_path, body):
    with pytest.raises(ValueError, match="part01_example.py: (REPLACE|APPEND)"):
        mutants.load(_write(tmp_path, body))


def test_a_mutant_file_is_read_never_imported(tmp_path):
    path = _write(tmp_path, "import no_such_module\nREPLACE = [('return offset + sum(', 'return sum(')]\n")
    mutant = mutants.load(path)
    assert mutant.replace == (("return offset + sum(", "return sum("),) and mutant.source == ""


def test_append_only_is_appended_after_the_reference(tmp_path):
    code = "def flat_index(index, strides, offset=0):\n    return 0\n"
    mutant = mutants.load(_write(tmp_path, f"APPEND = {code!r}\n"))
    mutants.materialize(mutant, tmp_path / "out")
    patched = (tmp_path / "out" / "assignment" / "strides.py").read_text()
    assert patched.startswith(_reference("strides")) and patched.endswith(code)


@pytest.mark.parametrize("body, changed", [
    ("REPLACE = [('return offset + sum(', 'return sum(')]\n", {"flat_index"}),  # inside one function
    # a function defined again, a helper and an import added: each a name the module binds
    ("APPEND = 'import math\\n_HALF = 0.5\\ndef flat_index(index, strides, offset=0):\\n    return 0\\n'\n",
     {"math", "_HALF", "flat_index"}),
    ("APPEND = 'flat_index.__defaults__ = (1,)\\n'\n", {""}),  # a statement run at import: it may reach anywhere
])
def test_the_names_a_mutant_changes_are_read_from_its_code(tmp_path, body, changed):
    """What the self-tests pack mutants and pick the tests to run by (selftest/test_hidden.py, test_graded_suite.py):
    a reading that misses a change would grade a mutant beside another, or without a test that catches it."""
    assert mutants.changed_names(mutants.load(_write(tmp_path, body))) == changed


@pytest.mark.parametrize("path", HOSTILE, ids=[p.stem for p in HOSTILE])
def test_a_hostile_file_is_still_appended_whole(path, tmp_path):
    mutant = mutants.load(path)
    mutants.materialize(mutant, tmp_path)
    patched = (tmp_path / "assignment" / f"{mutant.target}.py").read_text()
    assert patched == _reference(mutant.target) + f"\n\n# ---- mutant {mutant.name} ----\n" + path.read_text()
    _assert_rest_is_reference(tmp_path / "assignment", mutant.target)


def test_the_quick_check_says_a_broken_mutant_and_goes_on(tmp_path, monkeypatch, capsys):
    """``python -m grader mutants``: a mutant that no longer fits the reference stopped the check with a
    traceback, and the mutants after it went unchecked."""
    import argparse

    from grader import cli

    _write(tmp_path, "REPLACE = [('no such text in strides.py', 'x')]\n")
    (tmp_path / "part01_unreadable.py").write_text('"""A bug."""\nTARGET = "strides"\nREPLACE = [(\n')
    monkeypatch.setattr(mutants, "MUTANTS_DIR", tmp_path)
    assert cli._mutants(argparse.Namespace(names=None)) == 1
    said = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in said] == [["BROKEN", "part01_example"], ["BROKEN", "part01_unreadable"]], said
    assert "REPLACE text is not in strides.py" in said[0]
