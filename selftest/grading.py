"""Running the grader as staff do, from the self-tests: the command line, and what it wrote."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def grade(*args: str, timeout: int = 900) -> subprocess.CompletedProcess:
    """``python -m grader grade ARGS --quiet`` in this repository; it must succeed."""
    run = subprocess.run([sys.executable, "-m", "grader", "grade", *args, "--quiet"],
                         cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    assert run.returncode == 0, run.stderr[-3000:]
    return run


def written(out: Path, name: str = "grading.json") -> dict[str, dict]:
    """Each student's ``name`` file in an output folder, by student id."""
    return {p.parent.name: json.loads(p.read_text()) for p in Path(out).glob(f"*/{name}")}
