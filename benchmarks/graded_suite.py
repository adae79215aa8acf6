"""Benchmark: wall time of the whole graded suite against the reference (a student's `pytest`).

Prints, in one run, the time with one process (-n 0) and with two xdist workers
(-n 2, OMP_NUM_THREADS=1), each the best of --repeat runs. Goal: under 20 s.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(workers: int) -> float:
    env = dict(os.environ, OMP_NUM_THREADS="1")
    env.pop("CI", None)
    command = [sys.executable, "-m", "pytest", "tests", "--impl", "reference", "-q", "-p", "no:cacheprovider",
               "-n", str(workers)]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"the reference failed its own tests:\n{done.stdout[-3000:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    print(f"graded suite vs the reference, {os.cpu_count()} cores, best of {args.repeat}:")
    for workers in (0, 2):
        best = min(run(workers) for _ in range(args.repeat))
        verdict = "ok" if best < 20 else "OVER the 20 s goal"
        print(f"  -n {workers}: {best:6.1f} s wall  ({verdict})")


if __name__ == "__main__":
    main()
