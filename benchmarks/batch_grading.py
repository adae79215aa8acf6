"""Benchmark: the batch grader against the naive loop, on generated submissions.

Generates --count submissions (the reference, the stubs, every mutant, and
reference copies with one part replaced by its stub, in rotation), then times in
one run:
  batch   python -m grader grade SUBS --out DIR -j JOBS      (isolation on)
  naive   one fresh `pytest tests --submission X` per submission, same
          hypothesis profile and seed, in-process (no isolation at all)
and prints both and their ratio. Goal: the batch at least 5x faster.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader import mutants  # noqa: E402
from grader.harness.impl import MODULES  # noqa: E402


def generate(folder: Path, count: int) -> list[Path]:
    makers = [lambda d: mutants.materialize_reference(d)]
    makers.append(lambda d: _stubs(d))
    for mutant in mutants.discover():
        makers.append(lambda d, m=mutant: mutants.materialize(m, d))
    for module in MODULES:
        makers.append(lambda d, m=module: _one_stub(d, m))
    out = []
    for i in range(count):
        target = folder / f"s{i:03d}"
        makers[i % len(makers)](target)
        out.append(target)
    return out


def _stubs(into: Path) -> None:
    shutil.copytree(ROOT / "assignment", into / "assignment", ignore=shutil.ignore_patterns("__pycache__"))


def _one_stub(into: Path, module: str) -> None:
    mutants.materialize_reference(into)
    shutil.copy(ROOT / "assignment" / f"{module}.py", into / "assignment" / f"{module}.py")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--skip-naive", action="store_true")
    args = parser.parse_args()
    env = dict(os.environ, OMP_NUM_THREADS="1")
    env.pop("CI", None)
    with tempfile.TemporaryDirectory() as tmp:
        subs = generate(Path(tmp) / "subs", args.count)
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "grader", "grade", str(Path(tmp) / "subs"), "--out",
                        str(Path(tmp) / "out"), "-j", str(args.jobs), "--seed", str(args.seed), "--quiet"],
                       cwd=ROOT, env=env, check=True, capture_output=True)
        batch = time.perf_counter() - started
        print(f"{args.count} submissions, {os.cpu_count()} cores")
        print(f"  batch grader (isolation on, -j {args.jobs}): {batch:7.1f} s  ({batch / args.count:.2f} s each)")
        if args.skip_naive:
            return
        started = time.perf_counter()
        for sub in subs:
            subprocess.run([sys.executable, "-m", "pytest", "tests", "--submission", str(sub), "-q",
                            "-p", "no:cacheprovider", "--hypothesis-profile=grading",
                            f"--hypothesis-seed={args.seed}"], cwd=ROOT, env=env, capture_output=True)
        naive = time.perf_counter() - started
        print(f"  naive loop (fresh pytest each, no isolation): {naive:7.1f} s  ({naive / args.count:.2f} s each)")
        print(f"  speed-up: {naive / batch:.1f}x (goal: at least 5x)")


if __name__ == "__main__":
    main()
