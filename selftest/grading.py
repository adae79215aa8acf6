"""Running the grader as staff do, from the self-tests: the command line, what it wrote, a handout."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from filelock import FileLock

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "build" / "selftest-cache"
HANDOUT_SEED = 5


def grade(*args: str, timeout: int = 900) -> subprocess.CompletedProcess:
    """``python -m grader grade ARGS --quiet`` in this repository; it must succeed."""
    run = subprocess.run([sys.executable, "-m", "grader", "grade", *args, "--quiet"],
                         cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    assert run.returncode == 0, run.stderr[-3000:]
    return run


def written(out: Path, name: str = "grading.json") -> dict[str, dict]:
    """Each student's ``name`` file in an output folder, by student id."""
    return {p.parent.name: json.loads(p.read_text()) for p in Path(out).glob(f"*/{name}")}


def handout() -> Path:
    """The student handout, built once for every self-test that needs one (and rebuilt when the
    tests, the reference or the harness change): its recordings are what students replay."""
    from grader.handout import build
    from grader.harness.recording import fingerprint

    CACHE.mkdir(parents=True, exist_ok=True)
    folder = CACHE / f"handout-{fingerprint(ROOT)[:16]}"
    with FileLock(str(CACHE / "handout.lock")):
        if not (folder / "tests" / "recorded" / "manifest.json").exists():
            for stale in CACHE.glob("handout-*"):
                shutil.rmtree(stale, ignore_errors=True)
            build(folder, seed=HANDOUT_SEED)
    return folder


def environment(**extra: str) -> dict[str, str]:
    """This environment without CI (the profiles the self-tests name are the ones that run)."""
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    return {**env, **extra}


def recording(seed: int = 17, profile: str = "grading") -> Path:
    """``python -m grader record`` under this seed and profile, made once for every self-test that
    replays it (and again when the tests, the reference or the harness change)."""
    from grader.harness.recording import fingerprint

    CACHE.mkdir(parents=True, exist_ok=True)
    folder = CACHE / f"recording-{profile}-{seed}-{fingerprint(ROOT)[:16]}"
    with FileLock(str(CACHE / "recording.lock")):
        if not (folder / "manifest.json").exists():
            for stale in CACHE.glob(f"recording-{profile}-{seed}-*"):
                shutil.rmtree(stale, ignore_errors=True)
            run = subprocess.run([sys.executable, "-m", "grader", "record", "--seed", str(seed), "--profile", profile,
                                  "--out", str(folder)], cwd=ROOT, capture_output=True, text=True, timeout=1800)
            assert run.returncode == 0, run.stderr[-3000:]
    return folder
