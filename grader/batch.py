"""Grade many submissions: warm once, fork one grading process per submission.

    main process (trusted; never runs student code)
     ├─ fork server (a fresh interpreter, torch warm)  ──forks──>  sandboxed workers
     └─ grading processes, ``jobs`` at a time, forked from this warm process:
          each runs the graded tests for one submission against the live
          reference and sends its scored result back through a pipe.

Forking a process that has already imported torch, pytest, hypothesis, the
tests and the reference makes each submission start in milliseconds instead of
seconds. A grading process that dies or overruns its time is killed and its
submission scored from what it reported (nothing: every test "did not run").
"""

from __future__ import annotations

import dataclasses
import json
import os
import selectors
import shutil
import tempfile
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from grader import rubric as rubric_mod
from grader import scoring
from grader.session import Options, grade_here
from grader.isolation.sandbox import fresh_uid_base
from grader.submissions import Submission

@dataclass
class _Running:
    sub: Submission
    pid: int
    fd: int
    started: float
    slot: int
    data: bytearray


def prewarm(options: Options) -> None:
    """Import and run, once, everything a grading process needs (it inherits it all)."""
    # Ask NVML, not the CUDA runtime, whether there is a GPU: a process that has
    # initialised CUDA cannot fork children that use it.
    os.environ.setdefault("PYTORCH_NVML_BASED_CUDA_CHECK", "1")
    import torch

    torch.set_num_threads(1)  # forked children of a process with a thread pool deadlock
    import torch._dynamo  # noqa: F401 - what optimizers and dispatch modes import on first use
    import pytest  # noqa: F401
    from hypothesis import settings

    from grader.harness import profiles

    # Tests with their own @settings take every other setting from the profile loaded
    # when their module is imported: load the grading profile before importing them.
    profiles.register()
    settings.load_profile(options.profile)

    import grader.harness.plugin  # noqa: F401
    from grader.harness.impl import MODULES, Implementation

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


def record_reference(options: Options, into: Path, log: Path | None = None) -> bool:
    """Run the graded tests once against the reference under the grading seed and profile,
    recording every case drawn and every answer (in this trusted process).

    Every submission of the batch then replays exactly those cases, with the answers
    at hand: the inputs cost nothing to generate again, the reference is not asked
    twice, and every submission is graded on the same inputs. Returns False if the
    reference failed its own tests (the batch then grades live).
    """
    import pytest

    from grader.harness.oracle import Recordings
    from grader.session import _output_to, run_args

    select = "not cuda" + (f" and ({options.select})" if options.select else "")
    args = run_args([options.tests], profile=options.profile, seed=options.seed) + [
        "--impl", "reference", "--oracle", "live", "--record-to", str(into), "--record-examples", "-m", select]
    with _output_to(log):
        code = pytest.main(args)
    if code != pytest.ExitCode.OK:
        return False
    Recordings.load_dir(into)  # parsed once here; every grading process inherits it
    return True


class Progress:
    """One line on stderr: done/total, errors, elapsed and time left."""

    def __init__(self, total: int, stream=sys.stderr, enabled: bool = True) -> None:
        self.total, self.done, self.errors = total, 0, 0
        self.stream = stream
        self.enabled = enabled and total > 0
        self.started = time.monotonic()

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
        line = (f"\r[{bar}] {self.done}/{self.total} graded · {self.errors} failed to grade"
                f" · {_clock(elapsed)} elapsed · {_clock(left)} left ")
        self.stream.write(line)
        if self.done == self.total:
            self.stream.write("\n")
        self.stream.flush()


def _clock(seconds: float) -> str:
    m, s = divmod(int(seconds), 60)
    return f"{m:02d}:{s:02d}"


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
) -> list[scoring.SubmissionResult]:
    """Grade every submission; returns results in the order of ``subs``."""
    prewarm(options)
    notes: list[str] = []
    if replay and len(subs) > 1:
        recordings = Path(tempfile.mkdtemp(prefix="grading-recordings-"))
        if record_reference(options, recordings, log=(log_dir / "reference-run.log") if log_dir else None):
            options = dataclasses.replace(options, recordings=recordings)
        else:
            notes.append("the reference failed its own tests in the recording run: graded live")
    server = None
    if options.isolate:
        from grader.isolation.door import ForkServerHandle

        server = ForkServerHandle()
        if server.missing:  # a worker cannot import these after dropping privileges
            notes.append("the fork server could not preload: " + ", ".join(server.missing))
    lock_dir = Path(os.environ.get("TMPDIR", "/tmp"))
    root_mode = os.geteuid() == 0
    bar = Progress(len(subs), enabled=progress)
    bar.update()
    results: dict[str, scoring.SubmissionResult] = {}
    queue = list(subs)
    running: dict[int, _Running] = {}  # by pipe fd
    free_slots = list(range(jobs))
    uid_base = uid_base if uid_base is not None else fresh_uid_base(jobs)
    selector = selectors.DefaultSelector()
    try:
        while queue or running:
            while queue and free_slots:
                sub = queue.pop(0)
                slot = free_slots.pop(0)
                uid = uid_base + slot if (options.isolate and root_mode and options.drop_privileges) else None
                log = (log_dir / f"{sub.student}.log") if log_dir else None
                job = _fork(sub, options, server, uid, log, lock_dir, slot)
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
                result = _finish(job, options)
                free_slots.append(job.slot)
                results[job.sub.student] = result
                bar.update(result)
                if on_result:
                    on_result(result)
            now = time.monotonic()
            for fd, job in list(running.items()):
                if now - job.started > submission_timeout:
                    _kill(job.pid)
    finally:
        for job in running.values():
            _kill(job.pid)
        if server is not None:
            server.close()
        if options.recordings is not None:
            shutil.rmtree(options.recordings, ignore_errors=True)
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    return [results[s.student] for s in subs]


def _fork(sub: Submission, options: Options, server, uid, log, lock_dir, slot) -> _Running:
    read_fd, write_fd = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            os.close(read_fd)
            os.setpgid(0, 0)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            result = grade_here(sub, options, server=server, uid=uid, log=log, lock_dir=lock_dir)
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
    return _Running(sub, pid, read_fd, time.monotonic(), slot, bytearray())


def _finish(job: _Running, options: Options) -> scoring.SubmissionResult:
    _, status = os.waitpid(job.pid, 0)
    os.close(job.fd)
    seconds = time.monotonic() - job.started
    try:
        return scoring.SubmissionResult.from_dict(json.loads(job.data))
    except (ValueError, KeyError, TypeError):
        reason = "the grading process was stopped (time limit)" if os.WIFSIGNALED(status) \
            else f"the grading process failed (status {status})"
        return scoring.score(job.sub.student, [], rubric_mod.load(options.rubric),
                             seconds=seconds, error=reason)


def _kill(pid: int) -> None:
    if pid <= 1:
        return
    for target in (-pid, pid):
        try:
            os.kill(target, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
