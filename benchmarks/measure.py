"""What the benchmarks share: timed runs, a student's handout, the Gradescope layout, the table.

Every figure is wall time of a fresh process, as a user would start it, on this
machine, in one run of the benchmark: ratios are only meaningful side by side.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SEED = 3  # the grading seed every benchmark grades with


@dataclass(frozen=True)
class Figure:
    """One row of the table: what was timed, its time, what it is compared with, and the goal."""

    what: str
    seconds: float
    naive: float | None = None  # the naive alternative's time, run in the same benchmark
    goal: str = ""
    met: bool | None = None

    def row(self) -> str:
        naive = f"{self.naive:8.1f} s" if self.naive is not None else " " * 10
        ratio = f"{self.naive / self.seconds:5.1f}x" if self.naive else " " * 6
        verdict = {True: "met", False: "NOT met", None: ""}[self.met]
        return f"  {self.what:52} {self.seconds:8.1f} s  {naive}  {ratio}  {self.goal:28} {verdict}"


def header() -> str:
    return f"  {'what':52} {'time':>10}  {'naive':>10}  {'ratio':>6}  {'goal':28}"


def environment() -> dict[str, str]:
    """This environment without CI (so the profiles the commands name are the ones that run), and
    without PYTHONDONTWRITEBYTECODE, which some CI images set: a user's Python keeps its bytecode
    caches, and without them every run compiles the harness and the tests again."""
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTHONDONTWRITEBYTECODE")}
    return {**env, "OMP_NUM_THREADS": "1"}


def timed(command: list[str], *, cwd: Path, check: bool = False, env: dict | None = None) -> tuple[float, str]:
    """Wall seconds of one fresh process, and what it printed."""
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env or environment(), capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if check and done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return seconds, done.stdout + done.stderr


def best(runs: int, command: list[str], **kwargs) -> tuple[float, str]:
    """The fastest of ``runs`` (the first also fills the bytecode caches, as a student's first run does)."""
    results = [timed(command, **kwargs) for _ in range(runs)]
    return min(results, key=lambda r: r[0])


# --------------------------------------------------------------------------- a student's handout
def handout(folder: Path) -> Path:
    """The student handout, as ``make handout`` builds it."""
    from grader.handout import build

    build(folder, seed=5)
    return folder


def with_solution(handout_dir: Path, into: Path) -> Path:
    """A copy of the handout whose stubs are replaced by a correct solution (the reference's modules)."""
    shutil.copytree(handout_dir, into, ignore=shutil.ignore_patterns(".hypothesis", "__pycache__"))
    for module in (ROOT / "reference").glob("*.py"):
        if module.name != "__init__.py":
            shutil.copy(module, into / "assignment" / module.name)
    return into


def reference_submission(into: Path) -> Path:
    from grader import mutants

    return mutants.materialize_reference(into)


# --------------------------------------------------------------------------- Gradescope's layout
def gradescope_layout(root: Path, seed: int = SEED) -> Path:
    """``make gradescope``'s zip (the reference run recorded at build time), unpacked as Gradescope
    does into ``root/source``, and ``warm`` run there as setup.sh runs it when the image is built;
    returns ``root``."""
    zip_path = root / "autograder.zip"
    subprocess.run([sys.executable, "scripts/make_gradescope_zip.py", "--out", str(zip_path), "--seed", str(seed)],
                   cwd=ROOT, check=True, capture_output=True, env=environment())
    with zipfile.ZipFile(zip_path) as zf:
        zf.extractall(root / "source")
    for script in ("run_autograder", "warm"):
        (root / "source" / script).chmod(0o755)
    env = {**environment(), "AUTOGRADER_ROOT": str(root), "GRADER_PYTHON": sys.executable}
    warmed = subprocess.run(["bash", str(root / "source" / "warm")], cwd=root, capture_output=True, text=True, env=env)
    if warmed.returncode != 0:
        sys.exit(f"warm (setup.sh's last step) failed:\n{warmed.stdout[-3000:]}\n{warmed.stderr[-3000:]}")
    return root


def run_autograder(root: Path, submission: Path) -> tuple[float, dict, dict]:
    """Grade one submission as Gradescope does: wall seconds, results.json, and the timing record."""
    shutil.rmtree(root / "submission", ignore_errors=True)
    shutil.rmtree(root / "results", ignore_errors=True)
    shutil.copytree(submission, root / "submission")
    env = {**environment(), "AUTOGRADER_ROOT": str(root), "GRADER_PYTHON": sys.executable}
    seconds, output = timed(["bash", str(root / "source" / "run_autograder")], cwd=root, env=env)
    results = json.loads((root / "results" / "results.json").read_text())
    timing_file = root / "results" / "timing.json"
    timing = json.loads(timing_file.read_text()) if timing_file.exists() else {}
    return seconds, results, timing


def naive_grading(submission: Path, seed: int = SEED) -> list[str]:
    """The naive alternative: one plain pytest run of the graded tests, grading profile and seed."""
    return [sys.executable, "-m", "pytest", "tests", "--submission", str(submission), "-q", "-p", "no:cacheprovider",
            "--hypothesis-profile=grading", f"--hypothesis-seed={seed}"]


def breakdown(wall: float, timing: dict) -> list[str]:
    """Where one Gradescope run's time went, from the grader's own timing record."""
    batch, graded = timing.get("batch", {}), timing.get("submission", {})
    phases = batch.get("phases", {})
    inside = batch.get("seconds", 0.0)
    lines = [f"    interpreter, imports, seed and recording checks  {wall - inside:6.1f} s"]
    for name in ("warm-up seconds", "recording seconds", "fork server seconds", "grading seconds"):
        if name in phases:
            lines.append(f"    {name.replace(' seconds', ''):48} {phases[name]:6.1f} s")
    parts: dict[int, float] = {}
    for test in graded.get("tests", []):
        parts[test["part"]] = parts.get(test["part"], 0.0) + test["seconds"]
    if parts:
        lines.append("      per part: " + "  ".join(f"P{p} {s:.1f}" for p, s in sorted(parts.items())))
    t = graded.get("timing", {})
    if t:
        trips, questions = int(t.get("round trips", 0)), int(t.get("questions", 0))
        door = t.get("door seconds", 0.0)
        lines.append(f"      door: {questions} questions in {trips} round trips, {door:.1f} s waiting "
                     f"({1e3 * door / max(trips, 1):.2f} ms a round trip); inside the implementation's calls "
                     f"{t.get('implementation seconds', 0.0):.1f} s")
    if "grading CPU seconds" in t:
        workers = t.get("workers' CPU seconds", 0.0)
        lines.append(f"      CPU: grading processes {t['grading CPU seconds']:.1f} s, their workers {workers:.1f} s "
                     "(the submission's code and their handling of each question)")
    return lines
