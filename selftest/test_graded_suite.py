"""Staff check: the graded tests have teeth, as students run them, and each part stands alone.

The reference, the stubs and every mutant of ``mutants/`` are graded (in-process:
staff code only, so no sandbox needed) replaying the student handout's own
recordings: the public tests see exactly the examples a student's ``pytest``
replays, the hidden tests draw live. Then:
* the reference passes every graded test (the cuda ones are pending here);
* the stubs fail every graded test as "not implemented", never a harness error;
* every mutant fails at least one PUBLIC test of its own part: the public tests
  catch it at the student profile, not only grading;
* a lazy implementation of each module (``selftest/lazy``: every answer of the
  right type and shape, and wrong) scores 0 in every test of its part, hidden
  ones included: no test pays for a property (einops used, no autograd,
  gradients cleared) without the right answers;
* each part's tests ask only their own module's functions, and the reference's
  modules import none of each other's: so a mutant of one part cannot touch
  another (which is why the mutants are graded one a part to a submission, and
  the lazy modules all at once).
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from grader import mutants
from grader.harness.impl import MODULES
from grader.harness.parts import PARTS
from grader.outcomes import DID_NOT_RUN, NOT_SELECTED
from grader.session import STOPPED
from selftest.grading import ROOT, environment, grade, handout, written

MUTANTS = mutants.discover()
LAZY = Path(__file__).with_name("lazy")


def reached_from(module: str, function: str) -> set[str]:
    """The reference module's names ``function`` reaches, itself included, and "" (module-level code)."""
    tree = ast.parse((mutants.REFERENCE_DIR / f"{module}.py").read_text())
    defined = {node.name: node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    defined.update((t.id, node) for node in tree.body if isinstance(node, ast.Assign)  # the constants it reads
                   for t in node.targets if isinstance(t, ast.Name))
    reached, todo = {"", function}, [function]
    while todo:
        for node in ast.walk(defined[todo.pop()]):
            if isinstance(node, ast.Name) and node.id in defined and node.id not in reached:
                reached.add(node.id)
                todo.append(node.id)
    return reached


TIMER = reached_from(PARTS[5].module, "time_matmul")


def times_differently(mutant: mutants.Mutant) -> bool:
    """Whether a Part 5 mutant may change what the timed tests measure (they cost most of a mutant's grading,
    and ask time_matmul alone): the others are graded without them. Read wrongly, a mutant caught only by a
    timed test would fail the check below, never pass it."""
    return bool(mutants.changed_names(mutant) & TIMER)


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    recording = handout() / "tests" / "recorded"
    common = ["--recording", str(recording), "--profile", "record", "--no-isolate"]
    everything = tmp_path_factory.mktemp("everything")
    mutants.materialize_reference(everything / "the_reference")
    mutants.materialize_reference(everything / "the_stubs", ROOT / "assignment")
    # every module lazy at once, graded on every test: each part asks its own module alone
    # (test_each_part_stands_alone), so each part's scores are those of its module lazy beside the reference
    lazy = mutants.materialize_reference(everything / "the_lazy") / "assignment"
    for module in MODULES:
        shutil.copyfile(LAZY / f"{module}.py", lazy / f"{module}.py")
    out = tmp_path_factory.mktemp("out")
    grade(str(everything), "--out", str(out / "all"), *common, "-j", "2", timeout=1800)
    results = written(out / "all")
    # the mutants on the public tests, packed one a part into a submission (mutants.packed), its other modules the
    # stubs (each fails its part's first test at once), with -x: each part stops at its first failure, which is
    # all that is checked of a mutant: that a public test catches it (the hidden tests' power is test_hidden.py's)
    timers = [m for m in MUTANTS if m.part == 5 and times_differently(m)]
    # Part 5's timer mutants one at a time: beside the other xdist worker, two graded at once put four busy
    # processes on two cores, where a round of the op-by-op watch once let inputs drawn in the timed loop
    # through (what the batch grader's -j is for is at most one grading process a core)
    others = [m for m in MUTANTS if m not in timers]
    for name, chosen, select, jobs in (("packed", others, "not hidden and not timed", "2"),
                                       ("timers", timers, "part5 and not hidden", "1")):
        subs, graded_as = tmp_path_factory.mktemp(name), {}
        for i, pack in enumerate(mutants.packed(chosen)):
            mutants.materialize_together(pack, subs / f"{name}{i}", others=ROOT / "assignment")
            graded_as.update((mutant.name, f"{name}{i}") for mutant in pack)
        grade(str(subs), "--out", str(out / name), "-m", select, "-x", *common, "-j", jobs, timeout=1800)
        found = written(out / name)
        results.update((mutant, found[pack]) for mutant, pack in graded_as.items())
    return results


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
def test_each_mutant_is_caught_by_the_public_tests_of_its_part(batch, mutant):
    result = batch[mutant.name]
    caught = [t["test"] for t in failed(result) if t["part"] == mutant.part and not t["hidden"]
              and t["kind"] != DID_NOT_RUN]
    assert caught, f"{mutant.name} ({mutant.description}) survived every public test of part {mutant.part}"
    assert not any(t["kind"] == "harness error" for t in failed(result))


def test_a_mutant_s_part_stopped_at_its_first_failure(batch):
    """``grade -x`` (what the mutants are graded with): one test of the mutant's part failed, the part's tests
    after it did not run, and the other parts of its submission ran on."""
    for mutant in MUTANTS:
        own = [t for t in batch[mutant.name]["tests"] if t["part"] == mutant.part]
        assert len([t for t in failed({"tests": own}) if t["kind"] != DID_NOT_RUN]) == 1, mutant.name
    packs = {id(r): r for r in (batch[m.name] for m in MUTANTS)}.values()
    stopped = [t for r in packs for t in r["tests"] if t["kind"] == DID_NOT_RUN and t["message"] != NOT_SELECTED]
    assert len(stopped) > 100 and all(t["message"] == f"this test did not run: {STOPPED}" for t in stopped)
    assert any(len({t["part"] for t in r["tests"] if t["status"] == "passed"}) > 2 for r in packs)


@pytest.mark.parametrize("number", list(PARTS), ids=[p.module for p in PARTS.values()])
def test_a_lazy_module_scores_nothing(batch, number):
    result = batch["the_lazy"]
    paid = [f"{t['test']}: {t['status']}" for t in result["tests"]
            if t["part"] == number and t["status"] not in ("failed", "pending")]
    assert paid == [], f"the lazy {PARTS[number].module}.py earned points"
    assert result["error"] == ""


def test_every_part_has_at_least_three_mutants():
    counts = Counter(m.part for m in MUTANTS)
    assert all(counts[n] >= 3 for n in PARTS), counts


# --------------------------------------------------------------------------- locality
LOCALITY = '''
import json, os
from grader.harness.door import Door
from grader.harness.cases import current

ASKED = {}
_ask = Door.ask


def ask(self, q, **kwargs):
    if not self.trusted:
        ASKED.setdefault(current().test, set()).add(q.subject)
    return _ask(self, q, **kwargs)


Door.ask = ask


def pytest_sessionfinish(session):
    with open(os.environ["LOCALITY_OUT"], "w") as handle:
        json.dump({test: sorted(subjects) for test, subjects in ASKED.items()}, handle)
'''


def test_each_part_stands_alone(tmp_path):
    """Every function a part's tests ask of the implementation is of that part's module, and no
    reference module imports another: a bug in one module can only ever fail its own part."""
    (tmp_path / "locality.py").write_text(LOCALITY)
    out = tmp_path / "asked.json"
    run = subprocess.run([sys.executable, "-m", "pytest", "tests", "--impl", "reference", "-q", "-p", "locality",
                          "-p", "no:cacheprovider", "--hypothesis-profile=mutants", "-m", "not cuda"],
                         cwd=ROOT, capture_output=True, text=True, timeout=900,
                         env=environment(PYTHONPATH=str(tmp_path), LOCALITY_OUT=str(out)))
    assert run.returncode == 0, run.stdout[-3000:]
    asked = json.loads(out.read_text())
    strays = defaultdict(set)
    for test, subjects in asked.items():
        own = next(p.module for p in PARTS.values() if f"test_part{p.number:02d}_" in test)
        strays[test] |= {s for s in subjects if s.split(".")[0] != own}
    assert {t: s for t, s in strays.items() if s} == {}
    assert len(asked) >= 60
    for module in MODULES:
        tree = ast.parse((ROOT / "reference" / f"{module}.py").read_text())
        imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                    for alias in node.names}
        imported |= {(node.module or "").split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert imported.isdisjoint(set(MODULES) | {"reference", ""}), (module, imported)
