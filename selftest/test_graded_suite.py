"""Staff check: the graded tests have teeth, and give the reference and the stubs what they should.

One batch grades, in-process (staff code only, so no sandbox needed) and with
the derandomized ``mutants`` profile: the reference, the stubs, and every
mutant of ``mutants/``. Then:
* the reference passes every graded test (the cuda ones are pending here);
* the stubs fail every graded test as "not implemented", never a harness error;
* every mutant fails at least one test of its own part and none of any other.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader import mutants
from selftest.grading import grade, written

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = mutants.discover()


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    subs = tmp_path_factory.mktemp("subs")
    mutants.materialize_reference(subs / "the_reference")
    shutil.copytree(ROOT / "assignment", subs / "the_stubs" / "assignment",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for mutant in MUTANTS:
        mutants.materialize(mutant, subs / mutant.name)
    out = tmp_path_factory.mktemp("out")
    grade(str(subs), "--out", str(out), "-j", "2", "--no-isolate", "--profile", "mutants", "--seed", "0",
          timeout=1800)
    return written(out)


def failed(result: dict) -> list[dict]:
    return [t for t in result["tests"] if t["status"] == "failed"]


def test_the_reference_passes_every_graded_test(batch):
    result = batch["the_reference"]
    assert failed(result) == [], "\n\n".join(t["message"] for t in failed(result))
    assert result["error"] == ""
    assert all(t["status"] in ("passed", "pending") for t in result["tests"])


def test_the_stubs_fail_every_test_as_not_implemented(batch):
    result = batch["the_stubs"]
    problems = [f"{t['test']}: {t['kind']}: {t['message'][:300]}" for t in result["tests"]
                if t["status"] != "pending" and (t["status"] != "failed" or t["kind"] != "not implemented")]
    assert problems == []
    for t in failed(result):
        assert t["message"].splitlines()[1].startswith("not implemented: "), t["message"]
        assert "Traceback" not in t["message"]


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_each_mutant_is_caught_in_its_own_part_only(batch, mutant):
    result = batch[mutant.name]
    own = [t["test"] for t in failed(result) if t["part"] == mutant.part]
    other = [f"{t['test']}: {t['message'][:200]}" for t in failed(result) if t["part"] != mutant.part]
    assert own, f"{mutant.name} ({mutant.description}) survived every test of part {mutant.part}"
    assert other == [], f"{mutant.name} cascades into other parts"
    assert not any(t["kind"] == "harness error" for t in failed(result))


def test_every_part_has_at_least_three_mutants():
    from collections import Counter

    counts = Counter(m.part for m in MUTANTS)
    assert all(counts[n] >= 3 for n in range(1, 11)), counts
