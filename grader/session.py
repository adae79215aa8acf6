"""Grade one submission in this process: run the graded tests with pytest, score them.

The batch grader forks one warm process per submission and calls
``grade_here`` in it; nothing of the submission runs here (with isolation on,
every call goes to sandboxed workers through ``grader.isolation.transport``).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

import pytest

from grader import rubric as rubric_mod
from grader import scoring
from grader.command import ROOT, pytest_args
from grader.harness import wire
from grader.harness.door import Traffic
from grader.harness.faults import ImportFault
from grader.harness.impl import MODULES, Implementation
from grader.harness.parts import part_of_path
from grader.harness.plugin import IMPL_KEY
from grader.harness.transport import Session
from grader.isolation.sandbox import Limits
from grader.outcomes import FAILED, NOT_SELECTED, PASSED, PENDING, Collector, TestOutcome
from grader.outputs import NOT_LOADED
from grader.review import environment_reads
from grader.submissions import BadSubmission, Submission, stage


@dataclass(frozen=True)
class Options:
    seed: int = 0
    profile: str = "grading"
    isolate: bool = True
    tests: Path = ROOT / "tests"
    select: str | None = None  # a pytest -m expression
    limits: Limits = field(default_factory=Limits)
    timeout_scale: float = 1.0
    test_budget: float = 120.0
    rubric: Path = rubric_mod.RUBRIC_FILE
    drop_privileges: bool = True  # as root: workers run as unprivileged users
    recording: Path | None = None  # one reference run under this seed: replay its examples (see batch.py)
    reach_check: bool = True  # False: staff self-tests of the sandbox (see grader.harness.tamper)
    exitfirst: bool = False  # stop each part at its first failed test (is a bug caught? not a grade): StopEachPart


class _SessionReport:
    """Reads what the implementation's transport learned, before the harness closes it."""

    def __init__(self) -> None:
        self.session = Session()
        self.traffic = Traffic()

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        door = session.config.stash.get(IMPL_KEY, None)
        if door is not None:
            self.session = door.session()
            self.traffic = door.traffic


class CudaLock:
    """On a GPU machine, one cuda test at a time per device, across all grading processes.

    The lock file lives in a folder only the grader can write (no worker can block it)."""

    def __init__(self, lock_dir: Path) -> None:
        self.lock_dir = lock_dir

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item):
        if item.get_closest_marker("cuda") is None:
            return (yield)
        # which device, without touching CUDA here: this process was forked, the workers run the kernels
        device = (os.environ.get("CUDA_VISIBLE_DEVICES") or "0").split(",")[0].strip() or "0"
        with open(self.lock_dir / f"grader-cuda-{device}.lock", "w") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                return (yield)
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)


class StopEachPart:
    """``grade -x``: the tests of a part after its first failure are skipped (scored 0 as not run), and the other
    parts run on. Each part asks its own module alone (the mutants' self-test shows it), so a submission holding a
    bug in each of several parts tells, in one run, the first test that catches each."""

    def __init__(self) -> None:
        self.stopped: set[str] = set()

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        if _part(item.nodeid) in self.stopped:
            pytest.skip(STOPPED)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.failed and (part := _part(report.nodeid)) is not None:
            self.stopped.add(part)


STOPPED = "an earlier test of its part failed (-x)"


def _part(nodeid: str) -> str | None:
    part = part_of_path(nodeid.split("::", 1)[0])
    return part.module if part else None


RUN_FAILED = "the grading run failed"  # pytest itself stopped (a usage error): the grader's fault, not the code's


def grade_here(sub: Submission, options: Options, *, sandbox=None, log: Path | None = None,
               lock_dir: Path | None = None) -> scoring.SubmissionResult:
    """Stage, run and score one submission (``sandbox``: the batch's shared fork server and this slot's users)."""
    started = time.monotonic()
    if options.isolate:  # no student code runs in this process: tensors may remember their encodings
        wire.REMEMBER_ENCODINGS = True
    rubric = rubric_mod.load(options.rubric)
    workdir = Path(tempfile.mkdtemp(prefix="grading-"))
    try:
        try:
            staged, chosen = stage(sub, workdir / "staged")
        except BadSubmission as exc:
            return scoring.score(sub.student, _pending_without_a_gpu(options), rubric,
                                 seconds=time.monotonic() - started, error=f"could not read the submission: {exc}",
                                 upload=sub.source.name)
        collector, report = Collector(), _SessionReport()
        plugins: list[object] = [collector, report]
        if lock_dir is not None:
            plugins.append(CudaLock(lock_dir))
        if options.exitfirst:
            plugins.append(StopEachPart())
        if options.isolate:
            from grader.staff_plugin import SandboxPlugin

            plugins.append(SandboxPlugin(sandbox))
        args = pytest_args([options.tests], profile=options.profile, seed=options.seed, select=options.select,
                           submission=staged, recording=options.recording, test_budget=options.test_budget,
                           timeout_scale=options.timeout_scale, reach_check=options.reach_check)
        ran, cpu = time.monotonic(), time.process_time()
        with _output_to(log):
            code = pytest.main(args, plugins=plugins)
        timing = {"staging seconds": round(ran - started, 3), "pytest seconds": round(time.monotonic() - ran, 3),
                  **report.traffic.to_dict(), "grading CPU seconds": round(time.process_time() - cpu, 3)}
        if report.session.worker_cpu_seconds is not None:  # (the workers, read before each was stopped)
            timing["workers' CPU seconds"] = report.session.worker_cpu_seconds
        error = ""
        if code in (pytest.ExitCode.INTERNAL_ERROR, pytest.ExitCode.USAGE_ERROR):
            error = f"{RUN_FAILED} ({code.name}); staff: see the log"
        seen = report.session
        files = Implementation("assignment", staged)  # its files, read here and never run
        if not_loaded(collector.outcomes.values()):  # said in the grader's words, shown at once on Gradescope
            error = NOTHING_LOADED + "\n" + "\n".join(dict.fromkeys(
                files.load_finding(f"{module}.", kind) or f"assignment/{module}.py compiles (the public tests show "
                "why what they ask of it could not be loaded)"
                for module, kind in import_kinds(collector.outcomes.values()).items()))  # (__init__.py's once)
        notes = list(collector.collection_errors) + ([f"{scoring.UPLOAD}: {chosen}"] if chosen else [])
        if options.isolate:
            notes.append(f"isolation ({seen.protections.mode}): " + (", ".join(seen.protections.applied) or "none"))
            if seen.protections.missing:  # a degraded worker is said in every result, not only the batch's
                notes.append(f"{scoring.ISOLATION_MISSING}: " + "; ".join(seen.protections.missing))
        return scoring.score(sub.student, collector.outcomes.values(), rubric,
                             seconds=time.monotonic() - started, error=error, output=seen.output, notes=notes,
                             review=environment_reads(files.sources()),
                             timing=timing, upload=sub.source.name)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def not_loaded(outcomes: Iterable[TestOutcome]) -> bool:
    """Whether no test passed and every one that failed could not load what it asked (the module does not
    import, or lacks the name): a submission that does not import at all."""
    outcomes = graded_here(outcomes)
    failed = [o for o in outcomes if o.status == FAILED]
    return bool(failed) and all(o.kind in NOT_LOADED for o in failed) and not any(o.status == PASSED
                                                                                 for o in outcomes)


def graded_here(outcomes: Iterable[TestOutcome]) -> list[TestOutcome]:
    """The outcomes of the tests this run graded: not those its selection left out (a run of some parts, one
    piece of a split submission), nor those pending a GPU pass."""
    return [o for o in outcomes if o.message != NOT_SELECTED and o.status != PENDING]


def _pending_without_a_gpu(options: Options) -> list[TestOutcome]:
    """An upload that could not be read, on a machine without a GPU: its cuda tests wait for a GPU pass, as every
    other submission's do, so that its score is out of the same total (on Gradescope, 96, as the student README
    says); the GPU pass scores them 0 with the same reason."""
    from grader.harness.devices import cuda_usable

    if cuda_usable():
        return []
    return [TestOutcome(test, PENDING, "pending", "needs a CUDA device: a GPU pass grades it")
            for test in sorted(rubric_mod.cuda_tests(options.tests))]


NOTHING_LOADED = "nothing the tests ask could be loaded from the submission:"  # then a line per module


def import_kinds(outcomes: Iterable[TestOutcome]) -> dict[str, str]:
    """Per module whose part this run graded (a run of some parts, one piece of a split submission: of those
    alone), "import" where a test of its part could not import it, else "missing" (it imported, and lacked what
    was asked): what ``Implementation.load_finding`` is asked of it."""
    ran = [(part_of_path(o.test), o) for o in graded_here(outcomes) if part_of_path(o.test)]
    failed = {part.module for part, o in ran if o.kind == ImportFault.kind}
    graded = {part.module for part, _ in ran}
    return {module: "import" if module in failed else "missing" for module in MODULES if module in graded}


def joined_error(errors: Iterable[str]) -> str:
    """The whole-submission error of a submission graded in pieces (``batch.join_pieces``): nothing loaded only
    where no piece loaded anything, its lines joined once; any other error as it was."""
    errors = list(errors)
    nothing = [e for e in errors if e.startswith(NOTHING_LOADED)]
    others = [e for e in errors if e and not e.startswith(NOTHING_LOADED)]
    if nothing and len(nothing) == len(errors):
        lines = [line for e in nothing for line in e.splitlines()[1:]]
        others.insert(0, "\n".join([NOTHING_LOADED, *dict.fromkeys(lines)]))
    return "\n".join(dict.fromkeys(others))


@contextlib.contextmanager
def _output_to(log: Path | None):
    """Send pytest's own terminal output to a log file (fd level), or nowhere."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    target = os.open(str(log) if log else os.devnull, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(target, 1)
    os.dup2(target, 2)
    os.close(target)
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])
