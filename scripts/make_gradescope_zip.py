"""Build the Gradescope autograder zip: the grading files, a grading seed, the reference run recorded
under that seed, and setup.sh, warm and run_autograder at the zip's root.

Gradescope unpacks the zip into /autograder/source and runs setup.sh (once, when it
builds the image; its last step, warm, grades the reference once so that the image holds what
grading makes first and what each part costs there) and run_autograder (once per submission, in a container of its own).
Recording the reference run here, once, means no container ever records it again:
each only replays it (``python -m grader grade --recording``). A fresh grading seed is
drawn unless --seed is given; keep the zip private: it holds the reference, the
hidden tests and the seed.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INCLUDE = ("grader", "reference", "tests", "assignment", "conftest.py", "pyproject.toml", "requirements.txt")
DATA = "autograder-data"  # the seed and the recording, in the zip: grader/gradescope/run_autograder reads them


def _seed_file(path: str) -> int:
    """The seed a file starts with; never shown if it is not one (the seed is a secret)."""
    try:
        return int(Path(path).read_text(errors="replace").split()[0])
    except (OSError, ValueError, IndexError):
        sys.exit(f"error: --seed-file {path}: no integer seed to read there")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="build/autograder.zip")
    seeds = parser.add_mutually_exclusive_group()
    seeds.add_argument("--seed", type=int, default=None, help="the grading seed of a zip already in use")
    seeds.add_argument("--seed-file", default=None, help="a file whose first word is that seed (not in the "
                                                          "process list, unlike --seed)")
    parser.add_argument("--unchecked", action="store_true",
                        help="build without first checking the reference against torch and the rubric's points")
    args = parser.parse_args()
    os.umask(0o077)  # the zip holds the reference, the hidden tests, the seed and its recording: private as written
    if not args.unchecked:
        check_staff_files()
    seed = args.seed if args.seed is not None else _seed_file(args.seed_file) if args.seed_file else \
        random.SystemRandom().randrange(2**32)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        recording = Path(tmp) / "recording"
        print("recording the reference run under the grading seed (about a minute) ...")
        made = subprocess.run([sys.executable, "-m", "grader", "record", "--seed-file", "/dev/stdin", "--out",
                               str(recording)], input=f"{seed}\n", text=True, cwd=ROOT, stdout=subprocess.PIPE)
        if made.returncode != 0:
            sys.stdout.write(made.stdout)
            sys.exit(made.returncode)
        # not the recorder's own last line: it names a temporary folder, gone when this ends
        print(f"recorded {_examples(recording)} examples of the reference run into {DATA}/recording")
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
            for name in INCLUDE:
                path = ROOT / name
                files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
                for file in files:
                    if "__pycache__" in file.parts or file.suffix == ".pyc" or "recorded" in file.parts:
                        continue
                    zf.write(file, file.relative_to(ROOT).as_posix())
            for script in ("setup.sh", "warm", "run_autograder"):
                info = zipfile.ZipInfo(script)
                info.external_attr = 0o755 << 16
                zf.writestr(info, (ROOT / "grader" / "gradescope" / script).read_text())
            zf.writestr(f"{DATA}/seed", f"{seed}\n")
            for file in sorted(recording.iterdir()):
                zf.write(file, f"{DATA}/recording/{file.name}")
    print(f"wrote {out} (grading seed and its recorded reference run inside; keep it private)")


# The reference is the oracle every submission is graded against, and its own recording cannot tell it is wrong
# (a copy of it scores full marks against itself): what ships is first checked against torch, and the rubric's
# points against the course's plan (100, half each; every graded test with points).
STAFF_CHECKS = ("selftest/test_reference_part*.py", "selftest/test_rubric.py")


def check_staff_files() -> None:
    print("checking the reference against torch, and the rubric (about half a minute) ...")
    files = sorted(str(p.relative_to(ROOT)) for pattern in STAFF_CHECKS for p in ROOT.glob(pattern))
    checked = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *files],
                             cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if checked.returncode != 0:
        sys.stdout.write(checked.stdout[-6000:])
        print("error: the reference or the rubric failed its checks (above), so no zip was built: mend them "
              "(a wrong reference marks every correct submission wrong), or build with --unchecked", file=sys.stderr)
        sys.exit(1)


def _examples(recording: Path) -> int:
    sys.path.insert(0, str(ROOT))
    from grader.harness.recording import Recording

    return sum(len(examples) for examples in Recording.load(recording).examples.values())


if __name__ == "__main__":
    main()
