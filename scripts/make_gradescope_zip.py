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
import random
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INCLUDE = ("grader", "reference", "tests", "assignment", "conftest.py", "pyproject.toml", "requirements.txt")
DATA = "autograder-data"  # the seed and the recording, in the zip: grader/gradescope/run_autograder reads them


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="build/autograder.zip")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
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


def _examples(recording: Path) -> int:
    sys.path.insert(0, str(ROOT))
    from grader.harness.recording import Recording

    return sum(len(examples) for examples in Recording.load(recording).examples.values())


if __name__ == "__main__":
    main()
