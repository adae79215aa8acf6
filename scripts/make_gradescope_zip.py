"""Build the Gradescope autograder zip: the staff repo's grading files + setup.sh + run_autograder.

Gradescope unpacks the zip into /autograder/source and runs setup.sh (once, when
it builds the image) and run_autograder (once per submission). A fresh grading
seed is written into the zip (grader/grading_seed) unless --seed is given; keep
the zip private: it holds the reference and the hidden tests.
"""

from __future__ import annotations

import argparse
import random
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INCLUDE = ("grader", "reference", "tests", "assignment", "conftest.py", "pyproject.toml", "requirements.txt")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="build/autograder.zip")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in INCLUDE:
            path = ROOT / name
            files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
            for file in files:
                if "__pycache__" in file.parts or file.suffix == ".pyc":
                    continue
                zf.write(file, file.relative_to(ROOT).as_posix())
        for script in ("setup.sh", "run_autograder"):
            info = zipfile.ZipInfo(script)
            info.external_attr = 0o755 << 16
            zf.writestr(info, (ROOT / "grader" / "gradescope" / script).read_text())
        zf.writestr("grader/grading_seed", f"{seed}\n")
    print(f"wrote {out} (grading seed inside; keep it private)")


if __name__ == "__main__":
    main()
