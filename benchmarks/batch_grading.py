"""Benchmark: the batch grader against the naive loop at the same parallelism.

Generates --count submissions (the reference, the stubs, every mutant, and
reference copies with one part replaced by its stub, in rotation), then times
in one run:
  batch   python -m grader grade SUBS --out DIR -j JOBS   (isolation on; it records
          the reference run under the seed itself, and that is counted)
  naive   a fresh `pytest tests --submission X` per submission with the same
          profile and seed, no isolation, JOBS at a time (xargs -P JOBS)
and prints both, their ratio and the goal (at least 8x), with where the batch's
time went and the CPU a submission costs (its grading process, and its workers:
the submission's code and their handling of each question), which the cores
share at best. With the default --count (16) it takes about 5 minutes on 2 cores.

--unisolated also grades the same batch with no sandbox (``--no-isolate``: the
submissions here are the reference and its mutants, trusted code) replaying a
recording made beforehand: what the replayed grading costs with no isolation at
all, the most any cheaper sandbox could give. It adds about 2 minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import ROOT, SEED, Figure, environment, header, naive_grading, timed  # noqa: E402

from grader import mutants  # noqa: E402
from grader.harness.impl import MODULES  # noqa: E402


def generate(folder: Path, count: int) -> list[Path]:
    makers = [mutants.materialize_reference, _stubs]
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


def naive_loop(subs: list[Path], jobs: int) -> float:
    started = time.perf_counter()
    with ThreadPoolExecutor(jobs) as pool:  # each thread waits on one fresh pytest process
        list(pool.map(lambda sub: timed(naive_grading(sub), cwd=ROOT), subs))
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=16)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--skip-naive", action="store_true")
    parser.add_argument("--unisolated", action="store_true", help="also grade the batch with no sandbox")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        subs = generate(Path(tmp) / "subs", args.count)
        out = Path(tmp) / "out"
        print(f"grading {args.count} submissions with the batch grader ...", file=sys.stderr)
        batch, _ = timed([sys.executable, "-m", "grader", "grade", str(Path(tmp) / "subs"), "--out", str(out),
                          "-j", str(args.jobs), "--seed", str(SEED), "--quiet"], cwd=ROOT, check=True,
                         env=environment())
        phases = json.loads((out / "batch.json").read_text()).get("phases", {})
        cpu = _cpu_seconds(out)
        unisolated = _unisolated(Path(tmp), args.jobs) if args.unisolated else None
        naive = None
        if not args.skip_naive:
            print(f"the naive loop, {args.jobs} at a time ...", file=sys.stderr)
            naive = naive_loop(subs, args.jobs)
    print(f"{args.count} submissions, {os.cpu_count()} cores, -j {args.jobs} / -P {args.jobs}")
    print(header())
    print(Figure(f"batch of {args.count}, isolation on, -j {args.jobs} (per submission)", batch / args.count,
                 naive=naive / args.count if naive else None, goal=">= 8x the naive loop",
                 met=None if naive is None else naive >= 8 * batch).row())
    print("  where the batch's time went: " + ", ".join(f"{k.replace(' seconds', '')} {v:.1f} s"
                                                         for k, v in phases.items()))
    recorded = phases.get("recording seconds", 0.0)
    if recorded:  # a course records once per seed (`grader record`) for every batch and shard
        rest = (batch - recorded) / args.count
        ratio = f", {naive / args.count / rest:.1f}x the naive loop" if naive else ""
        print(f"  without the recording (made once per seed, shared by every batch and shard): {rest:.1f} s "
              f"per submission{ratio}")
    if cpu["grading"] or cpu["workers"]:  # the CPU a submission costs: what -j cores at the full share it over
        grading, workers = cpu["grading"] / args.count, cpu["workers"] / args.count
        floor = (grading + workers) / args.jobs
        ratio = f", {naive / args.count / floor:.1f}x the naive loop at most" if naive else ""
        print(f"  CPU a submission: its grading process {grading:.1f} s, its workers {workers:.1f} s (the submission's "
              f"code and their handling of {cpu['questions'] / args.count:.0f} questions); on {args.jobs} cores, "
              f"{floor:.1f} s a submission{ratio}")
    if unisolated is not None:
        ratio = f", {naive / unisolated:.1f}x the naive loop" if naive else ""  # both runs' imports and warm-up counted
        print(f"  the same batch with no sandbox at all, replaying a recording made beforehand: "
              f"{unisolated / args.count:.1f} s per submission{ratio}")


def _cpu_seconds(out: Path) -> dict[str, float]:
    """The CPU every submission's grading process and workers used, and the questions asked, summed over the
    grading records (their timing)."""
    total = {"grading": 0.0, "workers": 0.0, "questions": 0.0}
    for record in out.glob("*/grading.json"):
        timing = json.loads(record.read_text()).get("timing", {})
        total["grading"] += timing.get("grading CPU seconds", 0.0)
        total["workers"] += timing.get("workers' CPU seconds", 0.0)
        total["questions"] += timing.get("questions", 0.0)
    return total


def _unisolated(tmp: Path, jobs: int) -> float:
    """Seconds to grade the batch in ``tmp/subs`` with --no-isolate, replaying a recording made first (not counted)."""
    recording = tmp / "recording"
    timed([sys.executable, "-m", "grader", "record", "--seed", str(SEED), "--out", str(recording), "-j", str(jobs)],
          cwd=ROOT, check=True, env=environment())
    print("grading the batch again with no sandbox ...", file=sys.stderr)
    seconds, _ = timed([sys.executable, "-m", "grader", "grade", str(tmp / "subs"), "--out", str(tmp / "out-unisolated"),
                        "-j", str(jobs), "--seed", str(SEED), "--recording", str(recording), "--no-isolate", "--quiet"],
                       cwd=ROOT, check=True, env=environment())
    return seconds


if __name__ == "__main__":
    main()
