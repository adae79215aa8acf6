"""Benchmark: a student's loop and one Gradescope submission, each beside what it is compared with.

Prints, in one run (about 4 minutes on 2 cores; each figure the best of --repeat runs):
  student's first failure   `pytest -x` in the handout, on the untouched stubs         goal <= 4 s
  student's whole suite     `pytest` in the handout, with a correct solution            goal <= 8 s
  Gradescope path           `run_autograder` in a fake /autograder layout, the zip      goal <= 1/3 of naive
                            built (and the reference run recorded) by `make gradescope`
  naive alternative         one `pytest tests --submission X` with the grading profile and seed
and where the Gradescope run's time went (the grader's own timing record).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import (ROOT, Figure, best, breakdown, gradescope_layout, handout, header,  # noqa: E402
                     naive_grading, reference_submission, run_autograder, timed, with_solution)


def student_loop(work: Path, repeat: int) -> list[Figure]:
    print("building the handout ...", file=sys.stderr)
    stubs = handout(work / "handout")
    solved = with_solution(stubs, work / "solved")
    pytest = [sys.executable, "-m", "pytest"]
    first, out = best(repeat, [*pytest, "-x", "-q"], cwd=stubs)
    if "not implemented" not in out:
        sys.exit(f"the stubs' first failure did not say 'not implemented':\n{out[-2000:]}")
    whole, out = best(repeat, [*pytest, "-q"], cwd=solved)
    if " passed" not in out or " failed" in out:
        sys.exit(f"a correct solution did not pass the handout's tests:\n{out[-2000:]}")
    return [Figure("student: first failure (pytest -x, stubs)", first, goal="<= 4 s", met=first <= 4),
            Figure("student: whole suite (pytest, a correct solution)", whole, goal="<= 8 s", met=whole <= 8)]


def gradescope(work: Path, repeat: int) -> tuple[Figure, list[str]]:
    """Both sides the best of ``repeat`` runs (a run is stretched by whatever else the machine did
    meanwhile, never shrunk); the breakdown is the best Gradescope run's."""
    print("building the Gradescope zip (records the reference run) ...", file=sys.stderr)
    root = gradescope_layout(work / "autograder")
    submission = reference_submission(work / "submission")
    seconds, results, timing = min((run_autograder(root, submission) for _ in range(repeat)), key=lambda r: r[0])
    if not results.get("tests") or results.get("score", 0) <= 0:
        sys.exit(f"run_autograder did not grade the reference: {results.get('output', '')[:2000]}")
    print("the naive run ...", file=sys.stderr)
    naive = min(timed(naive_grading(submission), cwd=ROOT)[0] for _ in range(repeat))
    figure = Figure("Gradescope: one submission (run_autograder)", seconds, naive=naive,
                    goal="<= 1/3 of naive", met=seconds * 3 <= naive)
    return figure, breakdown(seconds, timing)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=2, help="every figure: the best of this many runs")
    parser.add_argument("--skip-gradescope", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        figures = student_loop(Path(tmp), args.repeat)
        details: list[str] = []
        if not args.skip_gradescope:
            figure, details = gradescope(Path(tmp), args.repeat)
            figures.append(figure)
    print(f"{os.cpu_count()} cores; every figure the best of {args.repeat} runs")
    print(header())
    for figure in figures:
        print(figure.row())
    if details:
        print("  where the Gradescope run's time went:")
        print("\n".join(details))


if __name__ == "__main__":
    main()
