"""Staff check: what a student's pytest says when it is run the wrong way.

A run that cannot grade anything says why in one line, with what to do: ``--submission`` naming no folder
is a usage error (not a traceback in every test), and a run that collected nothing where the tests are not
(pytest inside ``assignment/``, or named one of its modules) says where the tests are; pytest alone says
"no tests ran", as if there were none.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pytest_in(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], cwd=folder,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("given, why", [("no_such_folder", "no such folder"),
                                        ("submission.zip", "a zip: unzip it, and name the folder")])
def test_a_submission_that_is_no_folder_is_one_usage_error(tmp_path, given, why):
    (tmp_path / "submission.zip").write_bytes(b"PK\x05\x06" + bytes(18))
    done = pytest_in(ROOT, "tests/test_part01_strides.py", f"--submission={tmp_path / given}")
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout[-2000:]
    said = done.stdout + done.stderr
    assert f"{given}: {why}" in said and "a folder with assignment/ inside" in said, said[-2000:]
    assert "Traceback" not in said, said[-2000:]


def test_pytest_inside_assignment_says_where_the_tests_are():
    done = pytest_in(ROOT / "assignment")
    assert done.returncode == pytest.ExitCode.NO_TESTS_COLLECTED
    assert "no tests here: the tests are in ../tests/. Run `pytest` (or `pytest -x`) from ../" in done.stdout, \
        done.stdout[-2000:]


def test_pytest_in_a_folder_of_the_tests_with_none_says_where_they_are():
    """tests/strategies/ (and tests/recorded/, grader/) holds no test: the run said only "no tests ran" (red team)."""
    done = pytest_in(ROOT / "tests" / "strategies")
    assert done.returncode == pytest.ExitCode.NO_TESTS_COLLECTED
    assert "no tests here: the tests are in ../. Run `pytest` (or `pytest -x`) from ../../" in done.stdout, \
        done.stdout[-2000:]


def test_a_module_of_the_assignment_named_says_where_the_tests_are():
    done = pytest_in(ROOT, "assignment/strides.py")
    assert done.returncode == pytest.ExitCode.NO_TESTS_COLLECTED
    assert "no tests in assignment/strides.py: the tests are in tests/" in done.stdout, done.stdout[-2000:]


def test_a_selection_that_matches_nothing_is_left_as_pytest_says_it():
    done = pytest_in(ROOT, "tests/test_part01_strides.py", "-k", "no_test_is_called_this")
    assert done.returncode == pytest.ExitCode.NO_TESTS_COLLECTED
    assert "deselected" in done.stdout and "the tests are in" not in done.stdout, done.stdout[-2000:]
