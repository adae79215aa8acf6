"""The one place that builds a graded pytest run's command line.

Grading a submission, recording the reference, building the handout's
recordings and checking mutants all run the same tests the same way: this
repository's configuration, quiet, seeded, with the plugins that only cost time
at exit switched off.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def pytest_args(paths: list[Path | str], *, profile: str, seed: int | None, select: str | None = None,
                impl: str | None = None, submission: Path | None = None, recording: Path | None = None,
                record_to: Path | None = None, digests: bool = False, test_budget: float | None = None,
                timeout_scale: float | None = None, reach_check: bool = True) -> list[str]:
    args = [
        *map(str, paths),
        "-p", "no:cacheprovider", "-q", "--no-header", "-o", "addopts=", "--assert=plain",
        # these two collect garbage several times at exit: a second per submission, for nothing
        "-p", "no:unraisableexception", "-p", "no:threadexception",
        # options nobody here uses, whose imports cost a quarter second at every start
        "-p", "no:jaxtyping", "-p", "no:typeguard",
        # a failure's message is the harness's own paragraph; pytest's long traceback, built first
        # and thrown away, parses the source of every frame (75 ms a failing test)
        "--tb=native",
        f"--rootdir={ROOT}", "-c", str(ROOT / "pyproject.toml"),
        f"--hypothesis-profile={profile}",
    ]
    if seed is not None:
        args.append(f"--hypothesis-seed={seed}")
    if impl:
        args += ["--impl", impl]
    if submission is not None:
        args.append(f"--submission={submission}")
    if recording is not None:
        args += ["--oracle", "replay", f"--recording={recording}"]
    if record_to is not None:
        args += ["--oracle", "live", f"--record-to={record_to}"] + (["--record-digests"] if digests else [])
    if test_budget is not None:
        args.append(f"--test-budget={test_budget}")
    if timeout_scale is not None:
        args.append(f"--timeout-scale={timeout_scale}")
    if not reach_check:
        args.append("--no-reach-check")
    if select:
        args += ["-m", select]
    return args
