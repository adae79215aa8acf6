"""Staff check: every part has hidden tests, and each hidden test catches what the public ones miss.

``selftest/hidden_bugs/`` holds, in the mutant format (``grader/mutants.py``: a docstring,
TARGET, REPLACE pairs against ``reference/<TARGET>.py``), plausible bugs that the public
tests let through: at least one per part, each the proof that a hidden test of its part
has teeth. Unlike ``mutants/``, which the public tests must catch, these must get past
every public test of their part and fail a hidden one.

The reference and every hidden bug are graded as staff grade (``python -m grader grade``,
in-process, the mutants profile, seed 0), each read on its own part only
(``test_graded_suite.py::test_each_part_stands_alone`` shows that a bug of one module can
only fail its own part). Then:
* every part has at least one hidden test, and at least one hidden bug;
* the reference passes every test of every part, the hidden ones included;
* each hidden bug fails at least one hidden test of its part, with a message (no harness
  error), and passes every public test of its part;
* every hidden test is failed by at least one hidden bug: none is without a proof.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader import mutants
from grader import rubric as R
from grader.harness.parts import PARTS
from selftest.grading import grade, written

HIDDEN_BUGS = Path(__file__).with_name("hidden_bugs")
BUGS = mutants.discover(HIDDEN_BUGS)
REFERENCE = "the_reference"


def hidden_tests(number: int) -> list[str]:
    return [i.test for i in R.load().items if i.hidden and i.part == number]


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> dict[int, dict[str, dict]]:
    """part -> student -> grading.json, for the reference and that part's hidden bugs.

    One grade call, the bugs packed a few to a submission (``mutants.packed``), each pack graded on its bugs'
    parts alone (``--parts-of``): a call's fixed costs (start-up, warm-up, recording the reference) and a part
    graded for nothing outweigh a bug's own part's grading.
    """
    root = tmp_path_factory.mktemp("hidden")
    subs, out = root / "subs", root / "out"
    mutants.materialize_reference(subs / REFERENCE)
    graded_as, parts_of = {}, {}
    for i, pack in enumerate(mutants.packed(BUGS)):
        mutants.materialize_together(pack, subs / f"bugs{i}")
        graded_as.update((bug.name, f"bugs{i}") for bug in pack)
        parts_of[f"bugs{i}"] = sorted(bug.part for bug in pack)  # (only a bug's own part is read)
    (root / "parts.json").write_text(json.dumps(parts_of))
    # (the source reading is off: a hidden bug proves a hidden test's own power, and the reading refuses
    # some of them at home already, a loader with weights_only=False among them)
    grade(str(subs), "--out", str(out), "--no-isolate", "--profile", "mutants", "--seed", "0", "--no-reach-check",
          "--parts-of", str(root / "parts.json"), "-j", "2", timeout=900)
    found = written(out)
    return {n: {REFERENCE: found[REFERENCE], **{b.name: found[graded_as[b.name]] for b in BUGS if b.part == n}}
            for n in PARTS}


def own(result: dict, number: int) -> list[dict]:
    """The outcomes of part ``number``'s tests (of the others, only their own bugs' are read)."""
    return [t for t in result["tests"] if t["part"] == number]


def test_every_part_has_hidden_tests_and_hidden_bugs():
    assert {n: hidden_tests(n) for n in PARTS if not hidden_tests(n)} == {}
    assert sorted({b.part for b in BUGS}) == sorted(PARTS), "a part without a hidden bug"
    assert len({b.name for b in BUGS}.intersection(m.name for m in mutants.discover())) == 0


@pytest.mark.parametrize("number", list(PARTS), ids=[p.module for p in PARTS.values()])
def test_the_reference_passes_every_test(graded, number):
    result = graded[number][REFERENCE]
    assert result["error"] == ""
    outcomes = own(result, number)
    assert [f"{t['test']}: {t['message']}" for t in outcomes if t["status"] not in ("passed", "pending")] == []
    assert set(hidden_tests(number)) <= {t["test"] for t in outcomes}


@pytest.mark.parametrize("bug", BUGS, ids=[b.name for b in BUGS])
def test_each_hidden_bug_gets_past_the_public_tests_only(graded, bug):
    result = graded[bug.part][bug.name]
    assert result["error"] == ""
    tests = own(result, bug.part)
    public = [f"{t['test']}: {t['status']}: {t['message'][:300]}" for t in tests
              if not t["hidden"] and t["status"] not in ("passed", "pending")]
    assert public == [], f"{bug.name} ({bug.description}) is caught by a public test: it belongs in mutants/"
    hidden = [t for t in tests if t["hidden"]]
    assert hidden, f"part {bug.part} has no hidden test"
    if all(t["status"] == "pending" for t in hidden):  # e.g. no float16 autocast on this torch's CPU
        pytest.skip(f"the hidden tests of part {bug.part} cannot run here: {hidden[0]['message'][:200]}")
    caught = [t for t in hidden if t["status"] == "failed"]
    assert caught, f"{bug.name} ({bug.description}) got past every hidden test of part {bug.part}"
    assert all(t["kind"] not in ("harness error", "did not run") for t in caught), caught


@pytest.mark.parametrize("number", list(PARTS), ids=[p.module for p in PARTS.values()])
def test_every_hidden_test_has_a_bug_it_catches(graded, number):
    caught = {t["test"] for bug in BUGS if bug.part == number
              for t in own(graded[number][bug.name], number) if t["hidden"] and t["status"] == "failed"}
    pending = {t["test"] for t in own(graded[number][REFERENCE], number) if t["status"] == "pending"}
    assert set(hidden_tests(number)) - pending <= caught
