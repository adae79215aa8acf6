"""``python -m grader``: grade submissions, merge shards, build the handout, check mutants."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _mutants(args: argparse.Namespace) -> int:
    """Quick check of mutants, one pytest run each (the self-test uses the batch grader)."""
    from grader import mutants

    chosen = [m for m in mutants.discover() if not args.names or any(n in m.name for n in args.names)]
    bad = 0
    for mutant in chosen:
        with tempfile.TemporaryDirectory() as tmp:
            mutants.materialize(mutant, Path(tmp))
            run = subprocess.run(
                [sys.executable, "-m", "pytest", "tests", "--submission", tmp, "-q", "-rf",
                 "-p", "no:cacheprovider", "--hypothesis-profile=mutants"],
                cwd=ROOT, capture_output=True, text=True,
            )
        failed = re.findall(r"^FAILED tests/(?:hidden/)?test_part(\d\d)_\S+::(\w+)", run.stdout, re.M)
        own = sorted({name for part, name in failed if int(part) == mutant.part})
        other = sorted({f"part{int(part)}::{name}" for part, name in failed if int(part) != mutant.part})
        verdict = "caught" if own and not other else "SURVIVED" if not own else "CASCADES"
        bad += verdict != "caught"
        print(f"{verdict:9} {mutant.name:45} own: {', '.join(own) or '-'}"
              + (f"   other parts: {', '.join(other)}" if other else ""))
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("mutants", help="run the graded tests against mutants (quick check)")
    p.add_argument("names", nargs="*", help="substrings of mutant names (default: all)")
    p.set_defaults(func=_mutants)
    args = parser.parse_args(argv)
    return args.func(args)
