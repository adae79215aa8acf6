"""Grade many submissions: warm once, fork one grading process per submission.

    main process (trusted; never runs student code)
     ├─ fork server (a fresh interpreter, torch warm)  ──forks──>  sandboxed workers
     └─ grading processes, ``jobs`` at a time, forked from this warm process:
          each runs the graded tests for one submission, replaying the batch's
          recorded reference run, and sends its scored result back through a pipe.

Forking a process that has already imported torch, pytest, hypothesis, the
tests and the reference makes each submission start in milliseconds instead of
seconds. A grading process that dies or overruns its time is killed and its
submission scored from what it reported (nothing: every test "did not run").

``Batch`` holds what every grading process shares (the recording, the fork
server, a private lock folder) and cleans it up; ``Scheduler`` runs the
grading processes, ``jobs`` at a time, and collects their results.

With fewer submissions than slots (one Gradescope submission on a machine with
several cores), a submission is split by part across the spare slots
(``split_parts``): each piece is a grading process of its own, with its own
workers, and the pieces' results are joined test by test. A whole part stays in
one piece, so a function stuck in a loop still costs its limit once.
"""

from __future__ import annotations

import gc
import json
import os
import resource
import selectors
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from grader import rubric as rubric_mod
from grader import scoring
from grader.command import ROOT, pytest_args
from grader.harness import devices, wire
from grader.harness.longlived import long_lived
from grader.isolation.sandbox import fresh_uid_base, libc
from grader.session import RUN_FAILED, Options, grade_here, joined_error
from grader.submissions import Submission


def prewarm(options: Options, *, compiler: bool = True) -> None:
    """Import and run, once, everything a grading process needs (it inherits it all).

    ``compiler``: import torch's compiler too (2 s), which the reference's optimizers and dispatch
    modes import on first use. A grading process that replays a recording never runs the reference
    unless a submission asks what the recording never met (then it imports it itself), so a lone
    submission with a recording skips it; a batch, which pays it once for all, does not."""
    with long_lived():
        _prewarm(options, compiler=compiler)


def _prewarm(options: Options, *, compiler: bool) -> None:
    # Ask NVML, not the CUDA runtime, whether there is a GPU: a process that has
    # initialised CUDA cannot fork children that use it.
    os.environ.setdefault("PYTORCH_NVML_BASED_CUDA_CHECK", "1")
    from grader.harness.devices import decide_for_children

    decide_for_children()  # asked once here (unless told), of a fresh process, not by every grading process
    import torch

    torch.set_num_threads(1)  # forked children of a process with a thread pool deadlock
    if compiler:
        import torch._dynamo  # noqa: F401 - what optimizers and dispatch modes import on first use
    from hypothesis import settings

    from grader.harness import profiles

    # Tests with their own @settings take every other setting from the profile loaded
    # when their module is imported: load the grading profile before importing them.
    profiles.register()
    settings.load_profile(options.profile)

    import grader.harness.plugin  # noqa: F401
    import grader.staff_plugin  # noqa: F401
    from grader.harness.impl import MODULES, Implementation
    from grader.harness.probe import load_all

    load_all()
    reference = Implementation("reference", options.tests.parent)
    for module in MODULES:
        try:
            reference.module(module)
        except Exception:  # noqa: BLE001 - a missing part shows up in the results instead
            pass
    for path in sorted(options.tests.rglob("test_*.py")):  # import the test modules once
        name = ".".join(path.relative_to(options.tests.parent).with_suffix("").parts)
        try:
            __import__(name)
        except Exception:  # noqa: BLE001 - the run reports collection errors itself
            pass
    from grader.harness.adapters import gather_example_constants

    gather_example_constants()  # what hypothesis's plugin reads of the modules imported, as it collects


RECORDED, NOTHING_TO_RECORD, FAILED = "recorded", "nothing to record", "the reference failed"


def record(options: Options, into: Path, log: Path | None = None, *, jobs: int = 1) -> str:
    """Run the graded tests once against the reference under the grading seed and profile,
    recording every example drawn and every answer (in trusted processes only).

    Every submission graded with that seed then replays exactly those examples,
    with the answers at hand: the inputs cost nothing to generate again, the
    reference is not asked twice, and every submission is graded on the same
    inputs. Returns ``RECORDED``; ``FAILED`` if the reference failed its own tests (then nothing
    is written, and the batch grades live); ``NOTHING_TO_RECORD`` where the selection (``-m cuda``)
    holds only tests that are never recorded (they compare with the live reference on a GPU).

    ``jobs`` > 1: the parts are recorded in that many forked processes at once and the pieces
    merged (each test's examples depend only on the seed, not on which tests run beside it).
    """
    groups = split_parts(_tests_per_part(options), jobs) if jobs > 1 else []
    if len(groups) < 2:
        outcome = _outcome([_record_piece(options, into, log, parts=None)])
        if outcome != RECORDED:
            shutil.rmtree(into, ignore_errors=True)
        return outcome
    from grader.harness.recording import merge

    pieces = [into.with_name(f"{into.name}.piece{k}") for k in range(len(groups))]
    logs = [log.with_name(f"{log.stem}.piece{k}{log.suffix}") if log else None for k in range(len(groups))]
    try:
        codes = _record_pieces(options, list(zip(groups, pieces, logs)))
        # a piece that failed is recorded again alone: the reference's timing tests measure CPU time,
        # which the other pieces, busy beside it, can stretch
        for index, code in enumerate(codes):
            if code not in (0, NOTHING_COLLECTED):
                codes[index] = _record_pieces(options, [(groups[index], pieces[index], logs[index])])[0]
        if _outcome(codes) == RECORDED:
            merge([piece for piece, c in zip(pieces, codes) if c == 0], into)
        return _outcome(codes)
    finally:
        for piece in pieces:
            shutil.rmtree(piece, ignore_errors=True)
        if log:  # one log, where the caller said (a failure names it): the pieces' logs, each under its parts
            _gather_logs(log, list(zip(groups, logs)))


def _gather_logs(log: Path, pieces: list[tuple[list[int], Path]]) -> None:
    with open(log, "w") as out:
        for parts, piece in pieces:
            if piece.exists():
                out.write(f"===== the reference's run of parts {', '.join(map(str, parts))} =====\n")
                out.write(piece.read_text(errors="replace"))
                piece.unlink()


def _outcome(codes: list[int]) -> str:
    """What the pieces' exit codes add up to: a piece whose parts the selection (-m) leaves empty collects
    nothing; the others must pass."""
    if all(c == NOTHING_COLLECTED for c in codes):
        return NOTHING_TO_RECORD
    return RECORDED if all(c in (0, NOTHING_COLLECTED) for c in codes) else FAILED


def _record_pieces(options: Options, pieces: list[tuple[list[int], Path, Path | None]]) -> list[int]:
    """Record each (parts, folder, log) in a forked process of its own, all at once; their exit codes."""
    children: list[int] = []
    codes: list[int] = []
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        for parts, folder, log in pieces:
            shutil.rmtree(folder, ignore_errors=True)
            gc.freeze()  # see Scheduler._start
            pid = os.fork()
            if pid == 0:
                code = 1
                try:
                    signal.signal(signal.SIGINT, signal.SIG_DFL)
                    code = _record_piece(options, folder, log, parts=parts)
                finally:
                    os._exit(code)
            children.append(pid)
        for pid in children:
            status = os.waitpid(pid, 0)[1]
            codes.append(os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1)
        return codes
    finally:
        for pid in children[len(codes):]:  # interrupted: those not waited for
            _kill(pid)


def _tests_per_part(options: Options) -> dict[int, float]:
    """How many graded tests each part has: what a recording run's time mostly follows (drawing examples)."""
    counts = _per_part(options, lambda test: 1.0)
    return {number: count for number, count in counts.items() if count}


def _per_part(options: Options, weight: Callable[[str], float | None]) -> dict[int, float]:
    """The sum, by part, of ``weight`` over the rubric's tests (None: left out); every part listed."""
    from grader.harness.parts import PARTS, part_of_path

    sums = {number: 0.0 for number in PARTS}
    for item in rubric_mod.load(options.rubric).items:
        part = part_of_path(item.test.split("::")[0])
        value = weight(item.test) if part is not None else None
        if value is not None:
            sums[part.number] += value
    return sums


def _marked(parts: list[int]) -> str:
    """A marker expression for the tests of these parts."""
    return " or ".join(f"part{p}" for p in parts)


NOTHING_COLLECTED = 5  # pytest.ExitCode.NO_TESTS_COLLECTED


def _record_piece(options: Options, into: Path, log: Path | None, *, parts: list[int] | None) -> int:
    """Record the selected tests (only these parts, if given); pytest's exit code."""
    import pytest

    from grader.session import _output_to

    select = "not cuda" + (f" and ({options.select})" if options.select else "")
    if parts is not None:
        select += f" and ({_marked(parts)})"
    args = pytest_args([options.tests], profile=options.profile, seed=options.seed, select=select,
                       impl="reference", record_to=into)
    with _output_to(log):
        code = pytest.main(args)
    return int(code)


class Progress:
    """One line on stderr: done/total, errors, elapsed and time left. Redrawn in place on a terminal; in a
    log (a pipe, a file: Slurm, CI) a line of its own at each tenth of the batch, no carriage returns."""

    def __init__(self, total: int, stream=None, enabled: bool = True) -> None:
        self.total, self.done, self.errors = total, 0, 0
        self.stream = stream = stream if stream is not None else sys.stderr  # (the one of now, not of the import)
        self.enabled = enabled and total > 0
        self.started = time.monotonic()
        isatty = getattr(stream, "isatty", None)
        self.terminal = bool(enabled and isatty and isatty())
        self.logged = -1  # the last tenth written to a log

    def update(self, result: scoring.SubmissionResult | None = None) -> None:
        if result is not None:
            self.done += 1
            self.errors += bool(result.error)
        if not self.enabled:
            return
        elapsed = time.monotonic() - self.started
        left = elapsed / self.done * (self.total - self.done) if self.done else 0.0
        width = 28
        filled = int(width * self.done / self.total)
        bar = "#" * filled + "-" * (width - filled)
        line = (f"[{bar}] {self.done}/{self.total} graded · {self.errors} failed to grade"
                f" · {_clock(elapsed)} elapsed · {_clock(left)} left ")
        if self.terminal:
            self.stream.write("\r" + line + ("\n" if self.done == self.total else ""))
        else:
            tenth = 10 * self.done // self.total
            if tenth == self.logged:
                return
            self.logged = tenth
            self.stream.write(line.rstrip() + "\n")
        self.stream.flush()


def _clock(seconds: float) -> str:
    m, s = divmod(int(seconds), 60)
    return f"{m:02d}:{s:02d}"


class Batch:
    """What every grading process of a batch shares, set up once and cleaned up after:
    the warm imports, the recording, the fork server, a lock folder no worker can reach."""

    def __init__(self, options: Options, *, record_now: bool, log_dir: Path | None = None, server=None,
                 lone: bool = False, jobs: int = 1, progress: bool = False) -> None:
        """``server``: a fork server already launched (``ForkServerHandle(wait=False)``): it starts while
        this process imports; the batch owns it from here and closes it. ``lone``: one submission.
        ``progress``: say what the batch does before its first submission (the bar stood at 0 meanwhile)."""
        self.options = options
        self.progress = progress
        self.record_now = record_now
        self.lone = lone
        self.jobs = jobs  # processes it may run at once (the recording run is split across them)
        self.log_dir = log_dir
        self.notes: list[str] = []
        self.phases: dict[str, float] = {}  # where the batch's own time went, for batch.json
        self.server = server
        self.scratch = Path(tempfile.mkdtemp(prefix="grading-batch-"))  # 0700: the grader's alone

    def __enter__(self) -> "Batch":
        from grader.harness.recording import file_hashes

        clock = time.monotonic()
        self.files = file_hashes(self.options.tests.parent)  # what the batch grades with, from its first moment
        if self.options.isolate and self.server is None:  # started first: it imports while this process does
            from grader.isolation.server import ForkServerHandle

            self.server = ForkServerHandle(wait=False)

        def phase(name: str) -> None:
            nonlocal clock
            now = time.monotonic()
            self.phases[name] = round(now - clock, 3)
            clock = now

        # torch's compiler caches (made by `import torch._dynamo`) go with the batch, not to $TMPDIR
        os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", str(self.scratch / "torch"))
        prewarm(self.options, compiler=not (self.lone and self.options.recording is not None))
        phase("warm-up seconds")
        if self.record_now and self.options.recording is None:
            folder = self.scratch / "recording"
            log = (self.log_dir / "reference-run.log") if self.log_dir else None
            if self.progress:
                print("recording the reference run under the grading seed, once for the batch (about a minute; "
                      "`python -m grader record` makes one that every batch under this seed can use) ...",
                      file=sys.stderr, flush=True)
            recorded = record(self.options, folder, log=log, jobs=self.jobs)
            if recorded == RECORDED:
                self.options = replace(self.options, recording=folder)
            elif recorded == FAILED:
                self.notes.append("the reference failed its own tests in the recording run: graded live")
        if self.options.recording is not None:
            from grader.harness.door import prepare_questions
            from grader.harness.recording import Recording

            recording = Recording.load(self.options.recording)  # parsed once here; every grading process inherits it
            if not self.lone:  # and decoded once here, not once per submission (a lone one decodes what it meets)
                if self.options.isolate:  # no student code runs here, nor in the grading processes
                    wire.REMEMBER_ENCODINGS = True
                with long_lived():
                    recording.prepare()
                    prepare_questions(recording.all_questions())
        phase("recording seconds")
        # the fork server is not waited for here: grading processes start their own work meanwhile,
        # and each waits for it at its first worker (see ``server_ready``)
        return self

    def changed(self) -> str:
        """Which of the grader's files (the tests, the reference, the harness) changed since the batch began, in a
        few words; "" where none did. A grading process started after a change reads the new tests beside the
        batch's recording, which it refuses: every later submission would score 0 (a pull during a batch)."""
        from grader.harness.recording import file_hashes, what_changed

        return what_changed(self.files, file_hashes(self.options.tests.parent))

    def check_device(self, uid: int | None) -> None:
        """On a GPU machine, before any submission: ask a clean worker, boxed in as every later one (as
        ``uid``), to compute on the device, and say at once, loudly, if it cannot."""
        from grader.isolation.device_check import problem_in_worker

        clock = time.monotonic()
        problem = problem_in_worker(self.server, uid, self.options.limits)
        if problem and getattr(self.server, "cuda_started", False):
            problem = f"the fork server started CUDA while warming up, and no process forked after that can: {problem}"
        if problem:
            warning = (f"WARNING: a sandboxed worker cannot use the GPU ({problem}): every cuda test will fail "
                       "with a harness error (README, 'GPU')")
            self.notes.append(warning)
            print(warning, file=sys.stderr, flush=True)
        self.phases["device check seconds"] = round(time.monotonic() - clock, 3)

    def server_ready(self) -> None:
        """Wait for the fork server's word on itself; note what it could not preload."""
        clock = time.monotonic()
        if self.server is not None:
            try:
                self.server.wait_ready()
            except (RuntimeError, ValueError, KeyError) as exc:
                self.notes.append(f"WARNING: the fork server did not start ({exc}): no worker could run")
            if self.server.missing:  # a worker cannot import these after dropping privileges
                self.notes.append("the fork server could not preload: " + ", ".join(self.server.missing))
        self.phases["fork server seconds"] = round(time.monotonic() - clock, 3)

    def __exit__(self, *exc) -> None:
        if self.server is not None:
            self.server.close()
        shutil.rmtree(self.scratch, ignore_errors=True)


def split_parts(weights: dict[int, float], pieces: int) -> list[list[int]]:
    """Parts in ``pieces`` groups of about equal weight, none empty; the groups in part order.

    Longest first, each to the lightest group; then, while it lowers the heaviest group, a part moved out
    of it or swapped with a lighter part of another (the whole split waits for its heaviest group: longest
    first alone left a tenth of a second of one core idle at the end of a Gradescope run)."""
    def load(group: list[int]) -> float:
        return sum(weights[p] for p in group)

    groups: list[list[int]] = [[] for _ in range(min(pieces, len(weights)))]
    for part in sorted(weights, key=lambda p: (-weights[p], p)):
        min(groups, key=load).append(part)
    for _ in range(len(weights) ** 2):  # each step lowers the heaviest load or the number that hold it
        heavy = max(groups, key=load)
        top = load(heavy)
        best: tuple[float, list[int], list[int], int, int | None] | None = None
        for other in (g for g in groups if g is not heavy):
            for part in heavy:
                for swapped in [None, *other]:
                    if swapped is None and len(heavy) == 1:
                        continue  # no group left empty
                    delta = weights[part] - (weights[swapped] if swapped is not None else 0.0)
                    worse = max(top - delta, load(other) + delta)
                    if delta > 0 and worse < top - 1e-9 and (best is None or worse < best[0]):
                        best = (worse, heavy, other, part, swapped)
        if best is None:
            break
        _, heavy, other, part, swapped = best
        heavy.remove(part)
        other.append(part)
        if swapped is not None:
            other.remove(swapped)
            heavy.append(swapped)
    return sorted((sorted(g) for g in groups if g), key=lambda g: g[0])


# Beside a recording, where a graded run of the reference says what each part cost it (Gradescope's
# ``warm`` writes it when the image is built): the seconds of its tests, by part number
GRADED_SECONDS = "part-seconds.json"


def part_weights(options: Options) -> dict[int, float]:
    """What grading each part costs: what a graded run of the reference spent in it where one said so
    (``GRADED_SECONDS``: isolated, the time its workers take to start, held-up calls and the grading
    process's own checks included), else how long the recording run spent in its tests' bodies (drawing
    examples left out, as a replay leaves it out), or, without a recording, the same for each."""
    from grader.harness.parts import PARTS

    if options.recording is not None:
        from grader.harness.recording import Recording

        graded = graded_seconds(Path(options.recording) / GRADED_SECONDS)
        if graded is not None and set(graded) >= set(PARTS):
            return {number: graded[number] for number in PARTS}
        weights = _per_part(options, Recording.load(options.recording).seconds_of)
        if all(weights.values()):
            return weights
    return {number: 1.0 for number in PARTS}


def graded_seconds(path: Path) -> dict[int, float] | None:
    """A ``GRADED_SECONDS`` file's seconds by part (None: none there, or not one: every value > 0)."""
    try:
        data = json.loads(path.read_text())
        seconds = {int(part): float(value) for part, value in data.items()}
    except (OSError, ValueError, TypeError, AttributeError):
        return None
    return seconds if seconds and all(value > 0 for value in seconds.values()) else None


def write_graded_seconds(result: dict, path: Path) -> None:
    """``GRADED_SECONDS`` from one graded run's tests (``{"tests": [{"part": ..., "seconds": ...}, ...]}``,
    as ``grading.json`` and run_autograder's ``timing.json`` hold them): their seconds summed by part."""
    totals: dict[int, float] = {}
    for test in result.get("tests", ()):
        totals[int(test["part"])] = totals.get(int(test["part"]), 0.0) + float(test["seconds"])
    path.write_text(json.dumps({str(p): round(s, 3) for p, s in sorted(totals.items())}) + "\n")


def join_pieces(pieces: list[tuple[list[int], scoring.SubmissionResult]]) -> scoring.SubmissionResult:
    """One submission's result from the results of its pieces: each test from the piece that ran its part."""
    if len(pieces) == 1:
        return pieces[0][1]
    owner = {part: result for parts, result in pieces for part in parts}
    first = pieces[0][1]
    tests = tuple(next(t for t in owner[s.part].tests if t.test == s.test) if s.part in owner else s
                  for s in first.tests)
    results = [result for _, result in pieces]

    def unique(texts) -> list[str]:
        return list(dict.fromkeys(t for t in texts if t))

    timing: dict[str, float] = {}
    for result in results:
        for key, value in result.timing.items():
            timing[key] = round(timing.get(key, 0.0) + value, 3)
    return scoring.SubmissionResult(
        student=first.student, tests=tests, seconds=max(r.seconds for r in results),
        error=joined_error(r.error for r in results), output="\n".join(unique(r.output for r in results)),
        notes=tuple(unique(n for r in results for n in r.notes)),
        review=tuple(unique(line for r in results for line in r.review)), timing=timing, upload=first.upload)


@dataclass
class _Running:
    sub: Submission
    pid: int
    fd: int
    started: float
    slot: int
    data: bytearray
    tmp: Path  # its $TMPDIR, removed when it is done
    parts: list[int] | None = None  # a piece of a submission split by part (None: the whole submission)
    timed_out: bool = False  # killed here at the submission's time limit


class Scheduler:
    """Runs one grading process per submission, ``jobs`` at a time, each in a slot of its own
    (its own worker user ids), and collects their results as they finish."""

    def __init__(self, batch: Batch, *, jobs: int, uid_base: int | None, submission_timeout: float,
                 on_result: Callable[[scoring.SubmissionResult], None] | None, progress: bool,
                 parts_of: dict[str, list[int]] | None = None) -> None:
        from grader.isolation.transport import UIDS_PER_SLOT

        self.batch, self.jobs = batch, jobs
        self.parts_of = parts_of or {}
        self.uid_base = uid_base if uid_base is not None else fresh_uid_base(jobs * UIDS_PER_SLOT)
        self.submission_timeout = submission_timeout
        self.on_result = on_result
        self.progress = progress

    def run(self, subs: list[Submission]) -> list[scoring.SubmissionResult]:
        bar = Progress(len(subs), enabled=self.progress)
        bar.update()
        results: dict[str, scoring.SubmissionResult] = {}
        queue = self._pieces(subs)
        expected = Counter(sub.student for sub, _ in queue)  # pieces per submission
        finished: dict[str, list[tuple[list[int] | None, scoring.SubmissionResult]]] = {}
        running: dict[int, _Running] = {}  # by pipe fd
        free_slots = list(range(self.jobs))
        selector = selectors.DefaultSelector()
        # a batch told to stop (kill, a Slurm time limit) stops its grading processes first (the finally)
        stopping = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGTERM, _stop) if stopping else None
        changed = ""  # the grader's files changed during the batch: nothing more is started
        try:
            while (queue and not changed) or running:
                if queue and free_slots and not changed:
                    changed = self.batch.changed()
                while queue and free_slots and not changed:
                    job = self._start(*queue.pop(0), free_slots.pop(0))
                    running[job.fd] = job
                    selector.register(job.fd, selectors.EVENT_READ)
                for key, _ in selector.select(timeout=0.5):
                    job = running[key.fd]
                    chunk = os.read(key.fd, 1 << 16)
                    if chunk:
                        job.data += chunk
                        continue
                    selector.unregister(key.fd)
                    del running[key.fd]
                    free_slots.append(job.slot)
                    done = finished.setdefault(job.sub.student, [])
                    done.append((job.parts, self._finish(job)))
                    if len(done) < expected[job.sub.student]:
                        continue
                    result = done[0][1] if done[0][0] is None else join_pieces(sorted(done, key=lambda d: d[0]))
                    if RUN_FAILED in result.error and (changed := changed or self.batch.changed()):
                        continue  # (its run refused the recording for the changed files: not graded)
                    results[job.sub.student] = result
                    bar.update(result)
                    if self.on_result:
                        self.on_result(result)
                now = time.monotonic()
                for job in running.values():
                    if now - job.started > self.submission_timeout:
                        job.timed_out = True
                        _kill(job.pid)
        finally:
            for job in running.values():
                _kill(job.pid)
            if stopping:
                signal.signal(signal.SIGTERM, previous)
        if changed:
            raise FilesChanged(changed, [results[s.student] for s in subs if s.student in results],
                               [s.student for s in subs if s.student not in results])
        return [results[s.student] for s in subs]

    def _pieces(self, subs: list[Submission]) -> list[tuple[Submission, list[int] | None]]:
        """What to run: each submission whole, or, with slots to spare, in pieces of whole parts; one that
        ``parts_of`` names, on its parts alone, in one piece."""
        pieces = self.jobs // len(subs) if subs else 1
        groups = split_parts(part_weights(self.batch.options), pieces) \
            if pieces >= 2 and self.batch.options.select is None else [None]
        return [(sub, group) for sub in subs
                for group in ([sorted(self.parts_of[sub.student])] if sub.student in self.parts_of else groups)]

    def slot_uid(self, slot: int) -> int | None:
        """The first user id of a slot's workers (graded as root), or None (they stay the grading user)."""
        from grader.isolation.transport import UIDS_PER_SLOT

        return self.uid_base + UIDS_PER_SLOT * slot if os.geteuid() == 0 and self.batch.options.drop_privileges \
            else None

    def _start(self, sub: Submission, parts: list[int] | None, slot: int) -> _Running:
        options = self.batch.options
        if parts is not None:  # (within the batch's own selection, where it has one)
            marked = _marked(parts)
            options = replace(options, select=f"({options.select}) and ({marked})" if options.select else marked)
        sandbox = None
        if options.isolate:
            from grader.isolation.transport import Sandbox

            sandbox = Sandbox(self.batch.server, self.slot_uid(slot), options.limits)
        log = (self.batch.log_dir / f"{sub.student}.log") if self.batch.log_dir else None
        # its temporary files (the staged submission, pytest's) in the batch's scratch: a grading
        # process killed at its time limit leaves nothing behind once the batch is done
        tmp = Path(tempfile.mkdtemp(prefix="grading-", dir=self.batch.scratch))
        read_fd, write_fd = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        # Everything this process holds (torch's modules, the decoded recording: hundreds of thousands
        # of objects) goes to the collector's permanent generation first. A child's full collections
        # would otherwise walk all of it (about 0.4 s each), and writing to each object's header copies
        # the pages it shares with this process, for objects that live as long as it does.
        gc.freeze()
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                os.close(read_fd)
                # killed with the batch, however the batch ends (it runs as root, and may be spinning in a
                # submission's worst case): never an orphan that grades on
                libc().prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
                if os.getppid() != parent:
                    os._exit(1)
                os.setpgid(0, 0)
                os.environ["TMPDIR"] = str(tmp)
                tempfile.tempdir = None
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                if not options.limits.watch_memory:
                    limit_heap(GRADING_HEADROOM_MB)
                limit_cpu(GRADING_CPU_SECONDS)
                result = grade_here(sub, options, sandbox=sandbox, log=log, lock_dir=self.batch.scratch)
                payload = json.dumps(result.to_dict()).encode()
                view = memoryview(payload)
                while view:
                    written = os.write(write_fd, view)
                    view = view[written:]
            except BaseException:  # noqa: BLE001 - report nothing; the parent scores "did not run"
                code = 1
            finally:
                os._exit(code)
        os.close(write_fd)
        return _Running(sub, pid, read_fd, time.monotonic(), slot, bytearray(), tmp, parts)

    def _finish(self, job: _Running) -> scoring.SubmissionResult:
        _, status = os.waitpid(job.pid, 0)
        os.close(job.fd)
        shutil.rmtree(job.tmp, ignore_errors=True)
        seconds = time.monotonic() - job.started
        try:
            return scoring.SubmissionResult.from_dict(json.loads(job.data))
        except (ValueError, KeyError, TypeError):
            if job.timed_out:
                reason = f"the grading process was stopped at the time limit ({self.submission_timeout:.0f} s)"
            elif os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGXCPU:
                reason = (f"the grading process spent more than {GRADING_CPU_SECONDS} CPU-seconds of its own "
                          "(reading what the submission's workers sent; an honest submission takes a few)")
            elif os.WIFSIGNALED(status):
                reason = (f"the grading process was killed (signal {os.WTERMSIG(status)}; the kernel kills a "
                          "process this way when the machine runs out of memory)")
            else:
                reason = f"the grading process failed (status {status})"
            return scoring.score(job.sub.student, [], rubric_mod.load(self.batch.options.rubric),
                                 seconds=seconds, error=reason, upload=job.sub.source.name)


class FilesChanged(Exception):
    """The grader's own files changed during a batch: it stopped, and these submissions were not graded."""

    def __init__(self, changed: str, graded: list, not_graded: list[str]) -> None:
        super().__init__(changed)
        self.changed, self.graded, self.not_graded = changed, graded, not_graded


@dataclass(frozen=True)
class Graded:
    """A batch's results, in the order of its submissions, with what the batch itself noted."""

    results: list[scoring.SubmissionResult]
    notes: list[str]
    phases: dict[str, float]


def grade_all(
    subs: list[Submission],
    options: Options,
    *,
    jobs: int = 1,
    submission_timeout: float = 1800.0,
    log_dir: Path | None = None,
    on_result: Callable[[scoring.SubmissionResult], None] | None = None,
    progress: bool = True,
    replay: bool = True,
    uid_base: int | None = None,
    server=None,
    parts_of: dict[str, list[int]] | None = None,
) -> Graded:
    """Grade every submission; returns results in the order of ``subs``, notes and phase timings.

    ``replay``: record the reference once under the grading seed (unless ``options.recording``
    already holds such a recording) and replay it for every submission; else draw live.
    ``server``: a fork server launched early (see ``Batch``); closed here.
    ``parts_of``: student id -> the parts that student is graded on (their other tests are not selected).
    """
    with Batch(options, record_now=replay and len(subs) > 1, log_dir=log_dir, server=server,
               lone=len(subs) == 1, jobs=jobs, progress=progress) as batch:
        scheduler = Scheduler(batch, jobs=jobs, uid_base=uid_base, submission_timeout=submission_timeout,
                              on_result=on_result, progress=progress, parts_of=parts_of)
        if batch.server is not None and devices.cuda_usable():  # decided in the warm-up: never CUDA here
            batch.check_device(scheduler.slot_uid(0))
        started = time.monotonic()
        results = scheduler.run(subs)
        grading = round(time.monotonic() - started, 3)
        batch.server_ready()  # long since ready: its first line is read, its notes taken
        return Graded(results, batch.notes, {**batch.phases, "grading seconds": grading})


PR_SET_PDEATHSIG = 1

# A grading process reads what a submission's workers send (answers, checkpoint files) outside every limit
# a worker has. Each way found to make that reading allocate (a compressed checkpoint, a pickle calling
# bytearray) is closed where it was found; this bounds the next one: its heap may grow this much past what
# it was forked with, and beyond that an allocation fails in that process (a MemoryError, and the test it
# was in scores 0), not in the machine. An honest grading grows it by a few hundred MB. Not on a GPU
# machine (``watch_memory``): there CUDA's own mappings would count against the same limit.
GRADING_HEADROOM_MB = 4096


# The same for its CPU: each way found to make the trusted side's reading slow (a star-import mesh, a dict
# whose keys all hash alike) was made linear where it was found; past this many CPU-seconds of its own (an
# honest grading takes a few: the student's compute runs in the workers) the kernel stops the grading
# process, where the submission's time limit would have let it hold a core for half an hour.
GRADING_CPU_SECONDS = 300


def limit_cpu(seconds: int) -> None:
    """RLIMIT_CPU at this process's CPU time so far, plus ``seconds`` (SIGXCPU, then SIGKILL)."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    _lower_soft_limit(resource.RLIMIT_CPU, int(used.ru_utime + used.ru_stime) + seconds)


def limit_heap(headroom_mb: int) -> None:
    """RLIMIT_DATA (private writable memory: malloc, numpy, torch's CPU tensors) at this process's own
    now, plus ``headroom_mb``."""
    with open("/proc/self/status") as status:
        now_kb = next(int(line.split()[1]) for line in status if line.startswith("VmData:"))
    _lower_soft_limit(resource.RLIMIT_DATA, now_kb * 1024 + headroom_mb * 2**20)


def _lower_soft_limit(which: int, limit: int) -> None:
    """The soft limit ``which`` at ``limit``, never above the hard one (which stays)."""
    _, hard = resource.getrlimit(which)
    resource.setrlimit(which, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))


def _stop(signum, frame) -> None:  # noqa: ARG001
    raise SystemExit(128 + signum)


def _kill(pid: int) -> None:
    if pid <= 1:
        return
    for target in (-pid, pid):
        try:
            os.kill(target, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


__all__ = ["grade_all", "Graded", "record", "prewarm", "Batch", "Scheduler", "Progress", "ROOT", "split_parts",
           "join_pieces"]
