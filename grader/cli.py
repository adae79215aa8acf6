"""``python -m grader``: grade submissions, merge passes and shards, build the handout.

    python -m grader grade SUBMISSIONS... --out DIR [-j N] [--seed S] [--shard K/N]
    python -m grader merge DIR... --out DIR
    python -m grader handout --out DIR
    python -m grader mutants [NAME...]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STAFF_PATHS = ("reference", "tests", "grader", "mutants", "examples", "selftest", ".hypothesis")


# --------------------------------------------------------------------------- grade
def _seed(args: argparse.Namespace) -> int:
    if args.seed is not None:
        return args.seed
    if args.seed_file:
        return int(Path(args.seed_file).read_text().split()[0])
    if os.environ.get("GRADER_SEED"):
        return int(os.environ["GRADER_SEED"])
    return random.SystemRandom().randrange(2**32)


def protect_staff_files(root: Path) -> list[str]:
    """As root: no other user may read the reference, the tests, the grader or the seed."""
    done = []
    for name in STAFF_PATHS:
        path = root / name
        if path.exists():
            mode = path.stat().st_mode
            path.chmod(stat.S_IMODE(mode) & 0o700)
            done.append(name)
    return done


def _grade(args: argparse.Namespace) -> int:
    from grader import outputs, report
    from grader import rubric as rubric_mod
    from grader.batch import grade_all
    from grader.isolation.sandbox import Limits
    from grader.session import Options
    from grader.submissions import BadSubmission, Submission, expand, in_shard, parse_shard, student_id

    try:
        if args.single:
            subs = [Submission(student_id(Path(p).name), Path(p)) for p in args.submissions]
        else:
            subs = expand([Path(p) for p in args.submissions])
        shard = parse_shard(args.shard) if args.shard else None
    except (BadSubmission, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    subs = [s for s in subs if in_shard(s.student, shard)]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    root_mode = os.geteuid() == 0
    isolate = not args.no_isolate
    notes = []
    if isolate and root_mode and not args.same_user:
        out.chmod(0o700)
        protected = protect_staff_files(ROOT)
        notes.append("workers ran as unprivileged users; staff files not readable by them: "
                     + ", ".join(protected))
    elif isolate:
        notes.append("not root: workers ran as this user, from a temporary copy of each submission "
                     "(limits on; no separate user; see README, 'Isolation')")
    else:
        notes.append("isolation OFF: submissions ran inside the grading processes (trusted code only)")
    seed = _seed(args)
    options = Options(
        seed=seed, profile=args.profile, isolate=isolate, select=args.select,
        limits=Limits(memory_mb=args.memory_mb, watch_memory=args.watch_memory or _has_cuda()),
        timeout_scale=args.timeout_scale,
        drop_privileges=not args.same_user,
    )
    rubric = rubric_mod.load()
    log_dir = out / ".logs"
    log_dir.mkdir(exist_ok=True)
    started = time.monotonic()
    print(f"grading {len(subs)} submission(s) with {args.jobs} process(es)"
          + (f", shard {shard[0]}/{shard[1]}" if shard else "") + f", isolation {'on' if isolate else 'off'}",
          file=sys.stderr)
    results = grade_all(subs, options, jobs=args.jobs, log_dir=log_dir,
                        on_result=lambda r: outputs.write_student(out, r), progress=not args.quiet,
                        replay=not args.live, uid_base=args.worker_uid_base)
    # written again at the end, after every worker is gone: the last word is the grader's
    for result in results:
        outputs.write_student(out, result)
    outputs.write_csv(results, rubric, out / "grades.csv")
    gpu = _has_cuda()
    if not gpu and any(r.pending_points for r in results):
        notes.append("no CUDA GPU here: cuda tests are pending and left out of the totals; "
                     "merge a GPU pass with `python -m grader merge`")
    report.write(results, rubric, out / "report.html", notes=notes)
    (out / "batch.json").write_text(json.dumps({
        "seed": seed, "profile": args.profile, "isolation": isolate, "shard": args.shard,
        "jobs": args.jobs, "submissions": [s.student for s in subs], "gpu": gpu,
        "seconds": round(time.monotonic() - started, 1), "notes": notes,
    }, indent=1))
    print(outputs.table(results))
    for note in notes:
        print(f"note: {note}")
    print(f"wrote {out}/<student>/results.json, {out}/grades.csv, {out}/report.html "
          f"({time.monotonic() - started:.1f} s)")
    return 0


def _has_cuda() -> bool:
    """Whether a CUDA GPU is visible, asked of NVML: this process forks and must not start CUDA."""
    os.environ.setdefault("PYTORCH_NVML_BASED_CUDA_CHECK", "1")
    try:
        import torch

        return torch.cuda.is_available()
    except ImportError:
        return False


# --------------------------------------------------------------------------- merge
def _merge(args: argparse.Namespace) -> int:
    from grader import outputs, report, scoring
    from grader import rubric as rubric_mod

    # every run of a student, from every folder, merged at once: scoring.merge does not depend on their order
    runs: dict[str, list[scoring.SubmissionResult]] = {}
    notes = []
    for folder in map(Path, args.folders):
        batch = folder / "batch.json"
        if batch.exists():
            info = json.loads(batch.read_text())
            notes.append(f"{folder.name}: seed {info.get('seed')}, shard {info.get('shard') or 'all'}, "
                         f"gpu {'yes' if info.get('gpu') else 'no'}")
        for result in outputs.read_results(folder):
            runs.setdefault(result.student, []).append(result)
    results = [scoring.merge(*runs[k]) for k in sorted(runs)]
    notes.sort()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rubric = rubric_mod.load()
    for result in results:
        outputs.write_student(out, result)
    outputs.write_csv(results, rubric, out / "grades.csv")
    report.write(results, rubric, out / "report.html", title="Grading report (merged)", notes=notes)
    print(outputs.table(results))
    print(f"merged {len(args.folders)} folder(s), {len(results)} student(s) into {out}")
    return 0


# --------------------------------------------------------------------------- mutants
def _mutants(args: argparse.Namespace) -> int:
    """Quick check of mutants, one pytest run each (the self-test grades them as a batch)."""
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


# --------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    g = sub.add_parser("grade", help="grade submissions (folders, zips, or folders of them)")
    g.add_argument("submissions", nargs="+")
    g.add_argument("--out", required=True, help="output folder")
    g.add_argument("-j", "--jobs", type=int, default=max(1, min(4, os.cpu_count() or 1)))
    g.add_argument("--seed", type=int, default=None,
                   help="grading seed (visible in the process list: prefer --seed-file or GRADER_SEED)")
    g.add_argument("--seed-file", default=None, help="file whose first word is the grading seed")
    g.add_argument("--shard", default=None, help="grade only shard K of N (K/N, 1-based), by student id")
    g.add_argument("--profile", default="grading", help="hypothesis profile (default: grading)")
    g.add_argument("-m", dest="select", default=None, help="only tests matching this marker expression")
    g.add_argument("--no-isolate", action="store_true", help="run submissions in the grading processes (trusted code only)")
    g.add_argument("--memory-mb", type=int, default=3072, help="memory a worker may add to its start")
    g.add_argument("--watch-memory", action="store_true",
                   help="limit memory by watching each worker's RSS instead of an address-space limit "
                        "(automatic on a GPU machine, where CUDA needs unlimited address space)")
    g.add_argument("--timeout-scale", type=float, default=1.0, help="multiply every call's time limit")
    g.add_argument("--single", action="store_true",
                   help="each path is one submission, whatever its layout (Gradescope's /autograder/submission)")
    g.add_argument("--same-user", action="store_true",
                   help="as root, do not drop workers to unprivileged users (how a non-root grader runs)")
    g.add_argument("--live", action="store_true",
                   help="draw every submission's inputs afresh (default for a batch: record one "
                        "reference run with the grading seed and replay its inputs for everyone)")
    g.add_argument("--worker-uid-base", type=int, default=None,
                   help="as root, workers run as user ids BASE+slot (default: a fresh range per batch)")
    g.add_argument("--quiet", action="store_true", help="no progress bar")
    g.set_defaults(func=_grade)

    m = sub.add_parser("merge", help="join shards, or a CPU pass and a GPU pass, into one output")
    m.add_argument("folders", nargs="+")
    m.add_argument("--out", required=True)
    m.set_defaults(func=_merge)

    h = sub.add_parser("handout", help="build the student handout")
    h.add_argument("--out", required=True)
    h.add_argument("--seed", type=int, default=20261129, help="seed of the recorded cases")
    h.set_defaults(func=lambda a: __import__("grader.handout", fromlist=["main"]).main(a))

    q = sub.add_parser("mutants", help="run the graded tests against mutants (quick check)")
    q.add_argument("names", nargs="*", help="substrings of mutant names (default: all)")
    q.set_defaults(func=_mutants)

    args = parser.parse_args(argv)
    return args.func(args)
