"""Grade one submission in this process: run the graded tests with pytest, score them.

The batch grader forks one warm process per submission and calls
``grade_here`` in it; nothing of the submission runs here (with isolation on,
every call goes through a ``WorkerDoor`` to a sandboxed worker).
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

import pytest

from grader import rubric as rubric_mod
from grader import scoring
from grader.harness.plugin import IMPL_KEY
from grader.isolation import door as isolation
from grader.isolation.sandbox import Limits
from grader.outcomes import Collector
from grader.submissions import BadSubmission, Submission, stage

ROOT = Path(__file__).resolve().parent.parent


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
    recordings: Path | None = None  # a batch's own reference run: replay its cases (see batch.py)


class _DoorReport:
    """Reads what the implementation's door saw before the harness closes it."""

    def __init__(self) -> None:
        self.protections: list[str] = []
        self.import_errors: dict[str, str] = {}
        self.output = ""

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        door = session.config.stash.get(IMPL_KEY, None)
        if door is None:
            return
        describe = getattr(door, "describe", None)
        if describe is not None:
            info = describe()
            self.protections = info.get("protections", [])
            self.import_errors = info.get("import_errors", {})
            self.output = door.captured_output()


class _CudaLock:
    """On a GPU machine, one cuda test at a time per device, across all grading processes."""

    def __init__(self, lock_dir: Path) -> None:
        self.lock_dir = lock_dir

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item):
        if item.get_closest_marker("cuda") is None:
            return (yield)
        # which device, without touching CUDA here: this process was forked, the worker runs the kernels
        device = (os.environ.get("CUDA_VISIBLE_DEVICES") or "0").split(",")[0].strip() or "0"
        with open(self.lock_dir / f"grader-cuda-{device}.lock", "w") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                return (yield)
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)


def run_args(paths: list[Path], *, profile: str, seed: int) -> list[str]:
    """What every grading-side pytest run starts with: this repo's config, quiet, seeded."""
    return [
        *map(str, paths),
        "-p", "no:cacheprovider", "-q", "--no-header", "-o", "addopts=",
        # these two collect garbage several times at exit: a second per submission, for nothing
        "-p", "no:unraisableexception", "-p", "no:threadexception",
        f"--rootdir={ROOT}", "-c", str(ROOT / "pyproject.toml"),
        f"--hypothesis-profile={profile}", f"--hypothesis-seed={seed}",
    ]


def pytest_args(staged: Path, options: Options) -> list[str]:
    args = run_args([options.tests], profile=options.profile, seed=options.seed) + [
        "--submission", str(staged), f"--test-budget={options.test_budget}",
    ]
    if options.isolate:
        args.append("--isolate")
    if options.recordings is not None:
        args += ["--oracle", "replay", "--recordings", str(options.recordings)]
    if options.select:
        args += ["-m", options.select]
    return args


def grade_here(sub: Submission, options: Options, *, server=None, uid: int | None = None,
               log: Path | None = None, lock_dir: Path | None = None) -> scoring.SubmissionResult:
    started = time.monotonic()
    rubric = rubric_mod.load(options.rubric)
    workdir = Path(tempfile.mkdtemp(prefix="grading-"))
    try:
        try:
            staged = stage(sub, workdir / "staged")
        except BadSubmission as exc:
            return scoring.score(sub.student, [], rubric, seconds=time.monotonic() - started,
                                 error=f"could not read the submission: {exc}")
        isolation.CONTEXT.server = server
        isolation.CONTEXT.uid = uid
        isolation.CONTEXT.limits = options.limits
        isolation.CONTEXT.timeout_scale = options.timeout_scale
        collector, report = Collector(), _DoorReport()
        plugins: list[object] = [collector, report]
        if lock_dir is not None:
            plugins.append(_CudaLock(lock_dir))
        if options.recordings is not None:
            from grader.harness.oracle import Recordings
            from grader.replay import DirectReplay

            plugins.append(DirectReplay(Recordings.load_dir(options.recordings)))
        with _output_to(log):
            code = pytest.main(pytest_args(staged, options), plugins=plugins)
        error = ""
        if code in (pytest.ExitCode.INTERNAL_ERROR, pytest.ExitCode.USAGE_ERROR):
            error = f"the grading run failed ({code.name}); staff: see the log"
        if report.import_errors and len(report.import_errors) == len(rubric.by_part()):
            error = "the submission does not import:\n" + "\n".join(report.import_errors.values())
        notes = list(collector.collection_errors)
        if report.protections:
            notes.append("isolation: " + ", ".join(report.protections))
        return scoring.score(sub.student, collector.outcomes.values(), rubric,
                             seconds=time.monotonic() - started, error=error,
                             output=report.output, notes=notes)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


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
