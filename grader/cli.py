"""``python -m grader``: grade submissions, merge passes and shards, build the handout.

    python -m grader grade SUBMISSIONS... --out DIR [-j N] [--seed S | --seed-file F] [--shard K/N] [--recording R]
    python -m grader record --seed-file F --out R
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
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the staff's own files where they lie beside the grader (autograder-data: the seed and the recording that
# make_gradescope_zip.py puts in the autograder zip)
STAFF_PATHS = ("reference", "tests", "grader", "mutants", "examples", "selftest", ".hypothesis", "autograder-data")


class UsageError(Exception):
    """A mistake in how the grader was called: said in one line (``error: ...``), exit status 2."""


# --------------------------------------------------------------------------- grade
def _seed(args: argparse.Namespace, fresh: bool = True) -> int | None:
    """The grading seed: --seed, --seed-file, GRADER_SEED, else a fresh random one (or None if not ``fresh``).
    A seed that cannot be read is a usage error that never repeats the text it read: the seed is a secret."""
    if args.seed is not None:
        return args.seed
    if args.seed_file:
        try:
            words = Path(args.seed_file).read_text(errors="replace").split()
        except OSError as exc:
            raise UsageError(f"--seed-file {args.seed_file}: {exc.strerror or exc}") from None
        return _integer(words[0] if words else "", f"--seed-file {args.seed_file}: its first word")
    if os.environ.get("GRADER_SEED"):
        return _integer(os.environ["GRADER_SEED"], "GRADER_SEED")
    return random.SystemRandom().randrange(2**32) if fresh else None


def _integer(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"{what} is not an integer (a grading seed is one, e.g. 20261207)") from None


def _jobs(text: str) -> int:
    """-j N: one process or more (0 once started a batch that waited forever for a process it never made)."""
    try:
        jobs = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of processes") from None
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"{jobs}: grading needs at least one process (-j 1)")
    return jobs


def _out_folder(out: Path, submissions: list[str]) -> None:
    """--out is a folder of this batch's results alone: not a file, and not one holding another batch's students,
    whose folders its grades.csv and report would leave out without a word (a regrade of one student into the
    class's folder replaced the class's grades.csv with a one-row file)."""
    from grader import outputs

    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is a file: name a folder for the results")
    if not (out / "batch.json").exists():
        return
    others = sorted({r.student for r in outputs.read_results(out)} - set(submissions))
    if others:
        shown = ", ".join(others[:5]) + (f" and {len(others) - 5} more" if len(others) > 5 else "")
        raise UsageError(f"--out {out} holds the results of another batch ({len(others)} student(s) not in this one: "
                         f"{shown}); its grades.csv and report would list this batch alone. Grade into a new folder "
                         "(a regrade's results.json there replace the old ones), or remove this one first")


def protect_staff_files(root: Path, given: tuple[str | None, ...] = ()) -> list[str]:
    """As root: no other user may read the reference, the tests, the grader, or what this run was given
    (``given``: a recording, a seed file, wherever they lie): a recording holds every graded question
    with the reference's answer, which a worker must never read, sandboxed or not."""
    done = []
    # made now if missing, so that it is made the grader's alone: hypothesis keeps there the literals of every
    # module it sees imported (the reference's tables and constants among them), made later world-readable
    (root / ".hypothesis").mkdir(mode=0o700, exist_ok=True)
    for path in [root / name for name in STAFF_PATHS] + [Path(p) for p in given if p]:
        if path.exists():
            mode = path.stat().st_mode
            path.chmod(stat.S_IMODE(mode) & 0o700)
            done.append(path.name if path.parent == root else str(path))
    return done


def _recording(args: argparse.Namespace, seed: int | None) -> tuple[Path | None, int | None, str | None]:
    """The recording to replay (checked against these tests and this reference), and its seed;
    or an error message."""
    if not getattr(args, "recording", None):
        return None, seed, None
    from grader.harness.recording import Recording, Stale, fingerprint

    folder = Path(args.recording)
    try:
        recording = Recording.load(folder, expect=fingerprint(ROOT))
    except Stale as exc:
        return None, seed, str(exc)
    except (OSError, ValueError) as exc:
        return None, seed, f"cannot read the recording in {folder}: {exc}"
    made = recording.manifest
    if seed is not None and made.get("seed") != seed:
        return None, seed, (f"the recording in {folder} was made with seed {made.get('seed')}, not {seed}: "
                            "grade with its seed (give none), or record again")
    if made.get("profile") != args.profile:
        return None, seed, f"the recording in {folder} was made with the {made.get('profile')!r} profile"
    return folder, made.get("seed"), None


def _parts_drawn_live(recording: Path, results, rubric) -> list[int]:
    """Parts this batch graded (a verdict of some test) of which the recording holds no test: a recording made
    with ``-m`` is replayed where it can and the rest drawn live, without a word otherwise."""
    from grader.harness.recording import Recording
    from grader.outcomes import DID_NOT_RUN, PENDING

    recorded = {rubric.get(test).part for test in Recording.load(recording).manifest.get("seconds", {})
                if rubric.get(test) is not None}
    graded = {t.part for r in results for t in r.tests if t.kind != DID_NOT_RUN and t.status != PENDING}
    return sorted(graded - recorded)


# the markers a grading run selects by, besides each part's (``grader.harness.plugin`` registers them all)
MARKERS = ("hidden", "cuda", "graded", "timed")


def _marker(text: str) -> str:
    """A marker expression (``part4``, ``part7 and not hidden``) naming only markers the tests carry: one
    that names another (``part07``, as the test files are numbered) would select nothing, and every
    submission would score 0 for tests that never ran."""
    from grader.harness.parts import PARTS

    if not text.strip():
        raise argparse.ArgumentTypeError("an empty marker expression")
    known = [p.marker for p in PARTS.values()] + list(MARKERS)
    for name in re.findall(r"[A-Za-z_]\w*", text):
        if name not in known and name not in ("and", "or", "not"):
            part = re.fullmatch(r"part0*(\d+)", name)
            hint = f" (did you mean part{int(part.group(1))}?)" if part and int(part.group(1)) in PARTS else ""
            raise argparse.ArgumentTypeError(f"no test carries the marker {name!r}{hint}: the markers are "
                                             f"{', '.join(known)}")
    return text.strip()


def _either(expressions: list[str] | None) -> str | None:
    """``-m part4 -m part7``: the tests either selects (pytest's own -m keeps the last alone, which graded
    one part of two without a word)."""
    if not expressions:
        return None
    return expressions[0] if len(expressions) == 1 else " or ".join(f"({e})" for e in expressions)


def staff_notes_on_uploads(subs: list, results: list) -> list[str]:
    """What staff must know to match rows to a roster and to check a choice made for them: uploads given another
    id than their name (a name a file cannot hold, two uploads making one id), and uploads holding several copies
    of the code, of which one was graded (said to each student alone before)."""
    from grader.scoring import UPLOAD
    from grader.submissions import SEVERAL_COPIES, bare_name

    notes = []
    renamed = [f"{s.source.name} as {s.student}" for s in subs if s.student != bare_name(s.source.name)]
    if renamed:
        notes.append(f"{len(renamed)} upload(s) graded under an id other than their name (letters a file name may "
                     "not hold, or two uploads making one id; grades.csv's upload column names each): "
                     + ", ".join(renamed[:10]) + (" ..." if len(renamed) > 10 else ""))
    several = [r.student for r in results
               if any(SEVERAL_COPIES.match(note.removeprefix(f"{UPLOAD}: ")) for note in r.notes)]
    if several:
        notes.append(f"{len(several)} upload(s) held several copies of the code, of which the most written (then the "
                     "one changed last) was graded, as each one's results.json says; check the choice: "
                     + ", ".join(several[:10]) + (" ..." if len(several) > 10 else ""))
    return notes


def _grade(args: argparse.Namespace) -> int:
    server = None
    if not args.no_isolate:  # launched first: the fork server imports torch while this process does
        from grader.isolation.server import ForkServerHandle

        server = ForkServerHandle(wait=False)
    try:
        return _grade_with(args, server)
    finally:
        if server is not None:
            server.close()  # a no-op once the batch has closed it


def _parts_of(path: str, students: list[str]) -> tuple[dict[str, list[int]] | None, str]:
    """``--parts-of``'s file read: student id -> part numbers; or None and what is wrong with it."""
    from grader.harness.parts import PARTS

    try:
        given = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        return None, f"--parts-of {path}: not a JSON file ({exc})"
    if type(given) is not dict or not all(type(v) is list and v and all(type(p) is int for p in v)
                                          for v in given.values()):
        return None, f"--parts-of {path}: expected {{student id: [part numbers]}}, each list of one part or more"
    unknown = sorted(set(given) - set(students))
    if unknown:
        return None, f"--parts-of {path} names no submission of this batch: {', '.join(unknown[:10])}"
    wrong = sorted({p for v in given.values() for p in v} - set(PARTS))
    if wrong:
        return None, f"--parts-of {path}: no part {', '.join(map(str, wrong))} (there are {min(PARTS)} to {max(PARTS)})"
    return {student: sorted(set(parts)) for student, parts in given.items()}, ""


def _grade_with(args: argparse.Namespace, server) -> int:
    from grader import outputs, report, scoring
    from grader import rubric as rubric_mod
    from grader.batch import FilesChanged, grade_all
    from grader.harness.devices import decide_for_children
    from grader.isolation.sandbox import Limits
    from grader.session import Options
    from grader.submissions import (EXPORT_METADATA, BadSubmission, Submission, expand, export_submitters, in_shard,
                                    parse_shard, student_id)

    skipped: list[str] = []
    try:
        if args.single:
            subs = [Submission(student_id(Path(p).name), Path(p)) for p in args.submissions]
        else:
            subs = expand([Path(p) for p in args.submissions], skipped, leave_out=Path(args.out))
        shard = parse_shard(args.shard) if args.shard else None
    except (BadSubmission, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    recording, seed, problem = _recording(args, _seed(args, fresh=not args.recording))
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    # (read against the whole batch: one file serves each of its shards)
    parts_of, problem = _parts_of(args.parts_of, [s.student for s in subs]) if args.parts_of else (None, "")
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    subs = [s for s in subs if in_shard(s.student, shard)]
    out = Path(args.out)
    _out_folder(out, [s.student for s in subs])
    out.mkdir(parents=True, exist_ok=True)
    root_mode = os.geteuid() == 0
    isolate = not args.no_isolate
    gpu = decide_for_children()  # asked once, of a fresh process that really uses the device (the notes use it)
    notes = []
    if skipped:  # (a student's upload in another archive format is no submission, but must not vanish unsaid)
        said = (f"{len(skipped)} file(s) of the batch folder are neither a folder nor a .zip and were not graded: "
                + ", ".join(skipped[:8]) + (" ..." if len(skipped) > 8 else ""))
        print(f"WARNING: {said}", file=sys.stderr)
        notes.append(said)
    if isolate:
        from grader.isolation.sandbox import batch_notes

        if root_mode and not args.same_user:  # also unreadable to other users, should a worker see them
            out.chmod(0o700)
            notes.append("staff files readable by root only: "
                         + ", ".join(protect_staff_files(ROOT, (args.recording, args.seed_file))))
        isolation, warning = batch_notes(root_mode and not args.same_user)
        notes = isolation + notes
        if warning:
            print(f"WARNING: {warning}", file=sys.stderr)
    else:
        notes.append("isolation OFF: submissions ran inside the grading processes (trusted code only)")
    options = Options(
        seed=seed, profile=args.profile, isolate=isolate, select=_either(args.select),
        limits=Limits(memory_mb=args.memory_mb, watch_memory=args.watch_memory or gpu),
        timeout_scale=args.timeout_scale, drop_privileges=not args.same_user, recording=recording,
        reach_check=not args.no_reach_check, exitfirst=args.exitfirst,
    )
    if args.exitfirst:
        notes.append("-x: each part stopped at its first failed test, the part's tests after it scored 0 as not run "
                     "(a check that bugs are caught, not grades)")
    if parts_of:
        notes.append(f"--parts-of: {len(parts_of)} submission(s) graded on some parts alone (their other tests not "
                     "selected: blank in grades.csv, 0 in the total)")
    rubric = rubric_mod.load()
    if departs := rubric.warning():  # a number changed by hand: said before the batch, and in its report
        print(departs, file=sys.stderr)
        notes.append(departs)
    log_dir = out / ".logs"
    log_dir.mkdir(exist_ok=True)
    started = time.monotonic()
    print(f"grading {len(subs)} submission(s) with {args.jobs} process(es)"
          + (f", shard {shard[0]}/{shard[1]}" if shard else "") + f", isolation {'on' if isolate else 'off'}",
          file=sys.stderr)
    try:
        graded = grade_all(subs, options, jobs=args.jobs, log_dir=log_dir,
                           on_result=lambda r: outputs.write_student(out, r, hide_examples=args.hide_examples),
                           progress=not args.quiet,
                           replay=not args.live, uid_base=args.worker_uid_base, server=server, parts_of=parts_of)
    except FilesChanged as stopped:  # nothing written for a submission not graded: no 0 to upload by mistake
        shown = ", ".join(stopped.not_graded[:10]) + (" ..." if len(stopped.not_graded) > 10 else "")
        print(f"error: the grader's own files changed during the batch ({stopped.changed}): it stopped. "
              f"{len(stopped.graded)} submission(s) were graded before (their results.json are in {out}); "
              f"{len(stopped.not_graded)} were not, and have no results: {shown}. Grade the batch again into a new "
              "folder once the files are as they should be (no grades.csv or report was written)", file=sys.stderr)
        return 1
    results = graded.results
    notes += graded.notes
    # written again at the end, after every worker is gone: the last word is the grader's
    for result in results:
        outputs.write_student(out, result, hide_examples=args.hide_examples)
    submitters = {k: v for k, v in export_submitters([Path(p) for p in args.submissions]).items()
                  if k in {s.student for s in subs}}
    outputs.write_csv(results, rubric, out / "grades.csv", submitters)
    if submitters:
        notes.append(f"who made each submission, read from {EXPORT_METADATA} ({len(submitters)} of {len(subs)}): "
                     "grades.csv's submitters column")
    if not gpu and any(r.pending_points for r in results):
        notes.append("no CUDA GPU here: cuda tests are pending and left out of the totals; "
                     "merge a GPU pass with `python -m grader merge`")
    broken = outputs.harness_error_note(results)
    if broken:
        notes.append(broken)
    live = _parts_drawn_live(recording, results, rubric) if recording else []
    if live:
        notes.append(f"the recording {recording} holds no examples of Part {', '.join(map(str, live))} (recorded "
                     "with a selection): this batch drew those parts' examples live, for each submission, which "
                     "is slower; record every part once to replay them")
    notes += staff_notes_on_uploads(subs, results)
    unscored = scoring.unscored_tests(results)
    if unscored:
        notes.append(f"WARNING: {len(unscored)} test(s) ran and scored nothing, having no entry in "
                     f"{rubric_mod.RUBRIC_FILE.name}: " + ", ".join(unscored))
    report.write(results, rubric, out / "report.html", notes=notes)
    (out / "batch.json").write_text(json.dumps({
        "seed": seed, "profile": args.profile, "isolation": isolate, "shard": args.shard,
        "jobs": args.jobs, "submissions": [s.student for s in subs], "gpu": gpu,
        "recording": str(recording) if recording else None, "rubric": rubric_mod.file_hash(),
        "seconds": round(time.monotonic() - started, 1), "phases": graded.phases, "notes": notes,
        "submitters": submitters,
    }, indent=1))
    print(outputs.table(results))
    for note in notes:
        print(f"note: {note}")
    print(f"wrote {out}/<student>/results.json, {out}/grades.csv, {out}/report.html "
          f"({time.monotonic() - started:.1f} s)")
    return 0


# --------------------------------------------------------------------------- record
def _record(args: argparse.Namespace) -> int:
    """Record the reference run under a grading seed, once, for any number of batches or shards."""
    from grader.batch import FAILED, NOTHING_TO_RECORD, prewarm, record
    from grader.harness.recording import Recording
    from grader.session import Options

    seed = _seed(args)
    out = Path(args.out)
    if out.exists():
        shutil.rmtree(out)
    os.umask(0o077)  # the answers to every graded example, and the seed: the staff's alone from the start
    options = Options(seed=seed, profile=args.profile, select=_either(args.select), isolate=False)
    started = time.monotonic()
    caches = tempfile.TemporaryDirectory(prefix="grader-record-")  # torch's compiler caches, removed after
    os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", caches.name)
    prewarm(options)
    log = Path(tempfile.mkstemp(prefix="grader-record-", suffix=".log")[1])
    recorded = record(options, out, log=log, jobs=args.jobs)
    if recorded == FAILED:
        print(f"error: the reference failed its own tests while recording; see {log}", file=sys.stderr)
        return 1
    if recorded == NOTHING_TO_RECORD:
        log.unlink(missing_ok=True)
        print("error: nothing to record: the selection holds no test a recording keeps (cuda tests compare "
              "with the live reference, on a GPU)", file=sys.stderr)
        return 2
    log.unlink(missing_ok=True)
    examples = sum(len(v) for v in Recording.load(out).examples.values())
    print(f"recorded {examples} examples under seed {seed} ({args.profile}) into {out} "
          f"({time.monotonic() - started:.1f} s); grade with --recording {out}")
    return 0


# --------------------------------------------------------------------------- merge
def _merge(args: argparse.Namespace) -> int:
    from grader import outputs, report, scoring
    from grader import rubric as rubric_mod

    # every run of a student, from every folder, merged at once: scoring.merge does not depend on their order
    runs: dict[str, list[scoring.SubmissionResult]] = {}
    seeds: dict[str, list[tuple[int | None, str]]] = {}  # per student, each run's seed and folder
    notes = []
    said: dict[str, list[str]] = {}  # each batch's own notes (isolation, warnings), with the folders that said it
    infos: list[dict] = []
    for folder in map(Path, args.folders):
        batch = folder / "batch.json"
        found = outputs.read_results(folder) if folder.is_dir() else []
        if not found and not batch.exists():  # a typo merges as nothing: the student's other pass alone
            print(f"merge: {folder} holds no grading output (no batch.json, no <student>/grading.json)",
                  file=sys.stderr)
            return 2
        info = json.loads(batch.read_text()) if batch.exists() else {}
        infos += [info] if info else []
        if info:
            notes.append(f"{folder.name}: seed {info.get('seed')}, shard {info.get('shard') or 'all'}, "
                         f"gpu {'yes' if info.get('gpu') else 'no'}")
            for note in info.get("notes") or []:
                said.setdefault(str(note), []).append(folder.name)
            if info.get("rubric", rubric_mod.file_hash()) != rubric_mod.file_hash():
                notes.append(f"{folder.name} was graded under another rubric.toml: its scores here are the "
                             "rubric's of now, test by test")
        for result in found:
            runs.setdefault(result.student, []).append(result)
            seeds.setdefault(result.student, []).append((info.get("seed"), str(folder)))
    if not args.mixed_seeds:
        clash = _seed_clash(runs, seeds)
        if clash:
            print(f"merge: {clash}", file=sys.stderr)
            return 2
    results = [scoring.merge(*runs[k]) for k in sorted(runs)]
    # a note every batch made once (how workers were isolated); one of some batches, with their names
    kept = sorted(note if len(names) == len(infos) else f"{', '.join(sorted(names))}: {note}"
                  for note, names in said.items())
    notes = sorted(notes + kept)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rubric = rubric_mod.load()  # the points of now, whatever the runs were graded under: said where they depart
    if departs := rubric.warning():
        notes.append(departs)
    for result in results:
        outputs.write_student(out, result, hide_examples=args.hide_examples)
    submitters = {k: v for info in infos for k, v in (info.get("submitters") or {}).items()}
    outputs.write_csv(results, rubric, out / "grades.csv", submitters)
    broken = outputs.harness_error_note(results)
    if broken:  # a harness error survives a merge only where no pass gave the test a verdict
        notes.append(broken)
    report.write(results, rubric, out / "report.html", title="Grading report (merged)", notes=notes)
    # what a batch writes, so that a merged output merges again with the same checks (its seed, where one)
    seeds = {info.get("seed") for info in infos}
    (out / "batch.json").write_text(json.dumps({
        "seed": seeds.pop() if len(seeds) == 1 else None, "shard": None,
        "gpu": any(info.get("gpu") for info in infos), "rubric": rubric_mod.file_hash(),
        "merged": sorted(Path(f).name for f in args.folders), "notes": kept, "submitters": submitters,
    }, indent=1))
    print(outputs.table(results))
    if broken:
        print(f"note: {broken}")
    print(f"merged {len(args.folders)} folder(s), {len(results)} student(s) into {out}")
    return 0


def _seed_clash(runs: dict, seeds: dict) -> str:
    """Why runs must not be merged: one student's test passed under one grading seed and failed under
    another. Each seed draws other cases, and the merge keeps the better verdict, which would hide the
    failure one seed found. (Runs under one seed that disagree are merged, with a note: a busy machine.)"""
    from grader.scoring import is_verdict

    for student in sorted(runs):
        by_test: dict[str, dict[str, tuple[int, str]]] = {}  # test -> verdict -> a (seed, folder) that gave it
        for result, (seed, folder) in zip(runs[student], seeds[student]):
            for test in result.tests:
                if seed is not None and is_verdict(test):
                    by_test.setdefault(test.test, {}).setdefault(test.status, (seed, folder))
        for test, verdicts in sorted(by_test.items()):
            if len(verdicts) > 1 and len({seed for seed, _ in verdicts.values()}) > 1:
                said = " and ".join(f"{status} under seed {seed} ({folder})"
                                    for status, (seed, folder) in sorted(verdicts.items()))
                return (f"{student}'s {test} {said}. Each seed draws other cases, and a merge keeps the better "
                        "verdict, hiding the failure one seed found: merge passes graded with one seed "
                        "(--seed-file), or pass --mixed-seeds to keep the better verdict anyway")
    return ""


# --------------------------------------------------------------------------- mutants
def _mutants(args: argparse.Namespace) -> int:
    """Quick check of mutants, one pytest run each (the self-test grades them as a batch)."""
    from grader import mutants
    from grader.command import pytest_args

    files = sorted(mutants.MUTANTS_DIR.glob("part*.py"))
    chosen = [path for path in files if not args.names or any(n in path.stem for n in args.names)]
    bad = 0
    for path in chosen:
        with tempfile.TemporaryDirectory() as tmp:
            try:  # a mutant file that is wrong, or no longer fits the reference: said, and the others checked
                mutant = mutants.load(path)
                mutants.materialize(mutant, Path(tmp))
            except (ValueError, SyntaxError, OSError) as exc:
                bad += 1
                print(f"{'BROKEN':9} {path.stem:45} {exc}")
                continue
            argv = pytest_args(["tests"], profile="mutants", seed=None, submission=Path(tmp))
            run = subprocess.run([sys.executable, "-m", "pytest", *argv, "-rf"],
                                 cwd=ROOT, capture_output=True, text=True)
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
    g.add_argument("-j", "--jobs", type=_jobs, default=max(1, min(4, os.cpu_count() or 1)),
                   help="grading processes (default: the cores, at most 4)")
    seeds = g.add_mutually_exclusive_group()
    seeds.add_argument("--seed", type=int, default=None,
                       help="grading seed, an integer (visible in the process list: prefer --seed-file or GRADER_SEED)")
    seeds.add_argument("--seed-file", default=None, help="file whose first word is the grading seed (an integer)")
    g.add_argument("--shard", default=None, help="grade only shard K of N (K/N, 1-based), by student id")
    g.add_argument("--profile", default="grading", help="hypothesis profile (default: grading)")
    g.add_argument("-m", dest="select", action="append", type=_marker, default=None,
                   help="only tests matching this marker expression (given again: tests matching either)")
    g.add_argument("--no-isolate", action="store_true", help="run submissions in the grading processes (trusted code only)")
    g.add_argument("--memory-mb", type=int, default=3072, help="memory a worker may add to its start")
    g.add_argument("--watch-memory", action="store_true",
                   help="limit memory by watching each worker's RSS instead of an address-space limit "
                        "(automatic on a GPU machine, where CUDA needs unlimited address space)")
    g.add_argument("--timeout-scale", type=float, default=1.0, help="multiply every call's time limit")
    g.add_argument("--no-reach-check", action="store_true",
                   help="staff self-tests only: grade submissions whose source reaches into the "
                        "grader or a library's objects, which are otherwise refused (grader.harness.tamper)")
    g.add_argument("-x", "--exitfirst", action="store_true",
                   help="stop each part at its first failed test, the part's tests after it scored 0 as not run "
                        "(the other parts run on): for checking that bugs are caught (the mutants' self-test), "
                        "never for grades")
    g.add_argument("--parts-of", default=None, metavar="FILE",
                   help="a JSON file {student id: [part numbers]}: grade those students on those parts alone, "
                        "within -m's selection (a regrade of some parts; `merge` joins it to the first grading), "
                        "the others whole")
    g.add_argument("--hide-examples", action="store_true",
                   help="results.json: a failed public test says what failed but not the graded example (shown "
                        "once grades are published); for a seed graded again for every resubmission (Gradescope)")
    g.add_argument("--single", action="store_true",
                   help="each path is one submission, whatever its layout (Gradescope's /autograder/submission)")
    g.add_argument("--same-user", action="store_true",
                   help="as root, do not drop workers to unprivileged users (how a non-root grader runs)")
    g.add_argument("--live", action="store_true",
                   help="draw every submission's inputs afresh; without it (the default) a batch records one "
                        "reference run with the grading seed and replays its inputs for everyone")
    g.add_argument("--worker-uid-base", type=int, default=None,
                   help="as root, workers run as user ids BASE+slot (default: a fresh range per batch)")
    g.add_argument("--recording", default=None,
                   help="replay this recording of the reference (python -m grader record) instead of recording "
                        "one now; its seed is the grading seed")
    g.add_argument("--quiet", action="store_true", help="no progress bar")
    g.set_defaults(func=_grade)

    r = sub.add_parser("record", help="record the reference run under a grading seed, for --recording")
    r.add_argument("--out", required=True, help="the recording's folder")
    seeds = r.add_mutually_exclusive_group()
    seeds.add_argument("--seed", type=int, default=None, help="grading seed, an integer (prefer --seed-file)")
    seeds.add_argument("--seed-file", default=None, help="file whose first word is the grading seed (an integer)")
    r.add_argument("--profile", default="grading", help="hypothesis profile (default: grading)")
    r.add_argument("-m", dest="select", action="append", type=_marker, default=None,
                   help="only tests matching this marker expression (given again: tests matching either)")
    r.add_argument("-j", "--jobs", type=_jobs, default=os.cpu_count() or 1,
                   help="record the parts in this many processes at once (default: one per core)")
    r.set_defaults(func=_record)

    m = sub.add_parser("merge", help="join shards, or a CPU pass and a GPU pass, into one output")
    m.add_argument("folders", nargs="+")
    m.add_argument("--out", required=True)
    m.add_argument("--mixed-seeds", action="store_true",
                   help="merge a test graded under two seeds (keeping the better verdict) instead of refusing")
    m.add_argument("--hide-examples", action="store_true", help="as for grade")
    m.set_defaults(func=_merge)

    h = sub.add_parser("handout", help="build the student handout")
    h.add_argument("--out", required=True)
    h.add_argument("--seed", type=int, default=20261129, help="seed of the recorded cases")
    h.set_defaults(func=lambda a: __import__("grader.handout", fromlist=["main"]).main(a))

    q = sub.add_parser("mutants", help="run the graded tests against mutants (quick check)")
    q.add_argument("names", nargs="*", help="substrings of mutant names (default: all)")
    q.set_defaults(func=_mutants)

    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
