"""Nothing the handout ships solves a graded function: the proof, run by selftest/test_handout.py.

    python -m selftest.solution_proof HANDOUT OUT.json [--only module.function] [--extra MODULE]

For every graded function F of the spec (every function the public tests ask of
the implementation), every function or method defined in the handout's own code
(the harness, the strategies, the tests' helpers) whose signature accepts F's
arguments is tried in F's place, in the reference, in turn; F's public tests are
replayed over the handout's recorded examples, as a student's run replays them.
A candidate that passes all of F's tests is a solution the handout gives away:
OUT.json lists those (it must list none), how many pairs were tried, and the
functions whose candidates were split across processes (below).

Runs in a process of its own: candidates are called with arguments they were
never meant for, and the reference's modules are patched while they are tried.
Each graded function's candidates run in a forked process, the reference checked
there again after them; where it no longer passes (a candidate broke the
process), each half of them runs in a fork of its own, and so on down to the
candidate that broke it, tried first in a fresh process.
``--only`` limits the proof to one function (and its part's tests); ``--extra``
adds a module's functions to the candidates (to show the proof finds a planted
solution).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import os
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent

# of each call's time limit, for the candidates: a few helpers called with a graded function's sizes run a
# product or write a file of those sizes until stopped (10 s each, a third of the proof at the full limit);
# the reference, checked under the same limits after them, shows they admit an answer as fast as its own
TIME_SCALE = 0.3


def shipped_modules(handout: Path) -> list[str]:
    """The dotted names of the handout's own Python modules (harness, strategies, tests)."""
    names = []
    for path in sorted(handout.rglob("*.py")):
        rel = path.relative_to(handout)
        if rel.parts[0] in ("grader", "tests") and path.name != "__init__.py":
            names.append(".".join(rel.with_suffix("").parts))
    return names


def candidates(modules: list[str]) -> list[tuple[str, Callable[..., Any]]]:
    """Every function, and every method of every class, defined in those modules."""
    found = []
    for name in modules:
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if attr.startswith("test_"):  # a graded test itself, not a helper: it asks, it never answers
                continue
            if inspect.isfunction(value) and value.__module__ == name:
                found.append((f"{name}.{attr}", value))
            elif inspect.isclass(value) and value.__module__ == name:
                for method_name, method in vars(value).items():
                    if inspect.isfunction(method):
                        found.append((f"{name}.{attr}.{method_name}", method))
            elif hasattr(value, "__wrapped__") and getattr(value, "__module__", "") == name and \
                    inspect.isfunction(value.__wrapped__):  # a probe: its code
                found.append((f"{name}.{attr}", value.__wrapped__))
    return found


def fits(fn: Callable[..., Any], counts: set[int]) -> bool:
    """Whether ``fn`` accepts some number of positional arguments the graded function is called with."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return False
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return True
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is p.empty]
    if any(p.kind == p.KEYWORD_ONLY and p.default is p.empty for p in params):
        return False
    return any(len(required) <= n <= len(positional) for n in counts)


def graded_functions() -> dict[str, set[int]]:
    """Each function of the stubs, with the numbers of arguments it may be called with."""
    out = {}
    for path in sorted((ROOT / "assignment").glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef):
                total = len(node.args.args)
                required = total - len(node.args.defaults)
                out[f"{path.stem}.{node.name}"] = set(range(required, total + 1))
    return out


def main(handout: Path, out: Path, only: str | None = None, extra: tuple[str, ...] = ()) -> None:
    os.chdir(tempfile.mkdtemp(prefix="solution-proof-"))  # a candidate that writes files writes here
    sys.path.insert(0, str(ROOT))
    import pytest
    import torch

    torch.set_num_threads(1)  # candidates run in forked processes: a parallel op before a fork hangs the child

    from grader.harness.cases import CURRENT, Run, cases_of
    from grader.harness.door import Door
    from grader.harness.faults import Fault
    from grader.harness.impl import Implementation
    from grader.harness.oracle import ReplayOracle
    from grader.harness.recording import Recording
    from grader.harness.transport import InProcess

    recording = Recording.load(handout / "tests" / "recorded")
    oracle = ReplayOracle(recording)
    tests = []
    part = None
    if only:
        from grader.harness.parts import PARTS

        part = next(p.number for p in PARTS.values() if p.module == only.split(".")[0])
    for path in sorted((ROOT / "tests").glob(f"test_part{part:02d}_*.py" if part else "test_part*.py")):
        module = importlib.import_module(f"tests.{path.stem}")
        for name, fn in vars(module).items():
            marks = {m.name for m in getattr(fn, "pytestmark", [])}
            if name.startswith("test_") and callable(fn) and "cuda" not in marks:
                tests.append((f"{path.name}::{name}", fn))

    reference = Implementation("reference", ROOT)

    def run_test(test_id: str, fn: Callable[..., Any], door: Door) -> bool:
        """True if the test passes against ``door`` (every recorded example)."""
        CURRENT.set(Run("replay", recording=recording, test=test_id))
        door.begin_test(test_id)
        oracle.begin_test(test_id)
        cases = cases_of(fn)
        try:
            if cases is None:
                if "impl" not in inspect.signature(fn).parameters:
                    return True
                fn(**{k: v for k, v in (("impl", door), ("oracle", oracle))
                      if k in inspect.signature(fn).parameters})
                return True
            for example in cases.replayed(recording, test_id):
                cases.body(**cases.fixtures({"impl": door, "oracle": oracle}), **example)
            return True
        except pytest.skip.Exception:
            return True  # a test this machine cannot run (no float16 autocast here) proves nothing either way
        except (Exception, Fault):  # noqa: BLE001 - any failure at all: the candidate is no solution
            return False

    # which graded functions each test asks (the reference, watched)
    asked: dict[str, set[str]] = defaultdict(set)
    original_ask = Door.ask

    def watching(self, q, **kwargs):
        if self is watched:
            asked[current_test].add(q.subject)
        return original_ask(self, q, **kwargs)

    Door.ask = watching
    watched = Door(InProcess(reference), label="reference", files=reference)
    for current_test, fn in tests:
        if not run_test(current_test, fn, watched):
            raise SystemExit(f"the reference fails {current_test} on the handout's recordings")
    Door.ask = original_ask

    functions = {f: n for f, n in graded_functions().items() if only in (None, f)}
    pool = candidates(shipped_modules(handout) + list(extra))

    def solves(function: str, candidate: Callable[..., Any], its_tests: list) -> bool:
        """Whether ``candidate``, in ``function``'s place in the reference, passes all of ``its_tests``."""
        module_name, _, attr = function.partition(".")
        module = reference.module(module_name)
        original = getattr(module, attr)

        def stand_in(*args, **kwargs):
            return candidate(*args, **kwargs)

        setattr(module, attr, stand_in)
        try:
            door = Door(InProcess(reference), label="candidate", test_budget=20, timeout_scale=TIME_SCALE,
                        files=reference)
            return all(run_test(t, fn, door) for t, fn in its_tests)
        finally:
            setattr(module, attr, original)

    tried, solutions, split = 0, [], []
    for function, counts in sorted(functions.items()):
        its_tests = [(t, fn) for t, fn in tests if function in asked[t]]
        fitting = [(label, candidate) for label, candidate in pool if fits(candidate, counts)] if its_tests else []
        tried += len(fitting)

        def together(group: list) -> dict:
            """Every candidate of ``group`` in turn, then the reference again: had a candidate left the process
            broken (a module patched, a clock or a signal handler replaced), the candidates after it might have
            failed for that alone, hiding a solution; the reference's passing says none did."""
            found = [label for label, candidate in group if solves(function, candidate, its_tests)]
            door = Door(InProcess(reference), label="reference", timeout_scale=TIME_SCALE, files=reference)
            return {"found": found, "intact": all(run_test(t, fn, door) for t, fn in its_tests)}

        def found_in(group: list) -> list[str]:
            """The solutions in ``group``, tried together in a fresh process; where that process ended broken,
            each half of the group in its own, and so on down to a candidate alone, which a fresh process tries
            first (what it broke counts against itself alone): a few processes, not one a candidate (a fork of
            this process costs tens of milliseconds)."""
            outcome = in_a_fork(lambda: together(group))
            if outcome is not None and (outcome["intact"] or len(group) == 1):
                return outcome["found"]
            if len(group) == 1:
                return []  # the process died under it: no solution
            if function not in split:
                split.append(function)
            half = len(group) // 2
            return found_in(group[:half]) + found_in(group[half:])

        solutions += [{"function": function, "candidate": label, "tests": [t for t, _ in its_tests]}
                      for label in found_in(fitting)]
    out.write_text(json.dumps({"tried": tried, "functions": sorted(functions), "solutions": solutions,
                                "split": split}, indent=1))


def in_a_fork(work: Callable[[], Any]) -> Any:
    """``work()``'s result (plain JSON) from a forked process, which ends with it: whatever the candidates it
    calls change (modules, clocks, signal handlers, the working directory's files) dies with it. None where the
    process ended without one (a candidate that crashed it, or called ``os._exit``)."""
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: every exit, an exception's too, through os._exit (no parent's cleanup runs twice)
        os.close(reading)
        code = 1
        try:
            with os.fdopen(writing, "w") as sink:
                json.dump(work(), sink)
            code = 0
        finally:
            os._exit(code)
    os.close(writing)
    with os.fdopen(reading) as source:
        text = source.read()
    os.waitpid(pid, 0)
    try:
        return json.loads(text)
    except ValueError:
        return None


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("handout", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--only", default=None)
    parser.add_argument("--extra", action="append", default=[])
    args = parser.parse_args()
    main(args.handout.resolve(), args.out.resolve(), args.only, tuple(args.extra))
