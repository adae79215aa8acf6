#!/usr/bin/env bash
# Gradescope image setup: runs once when the autograder image is built.
# The autograder zip (made by `make gradescope`) unpacks into /autograder/source.
set -euo pipefail
SOURCE=/autograder/source

apt-get update -qq
apt-get install -y -qq python3 python3-venv python3-pip >/dev/null
# the grader needs Python 3.11 or later (tomllib, the pinned torch): on an older image the build stops here,
# saying so, rather than at the first import of the grader in warm
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "setup.sh: the image's python3 is $(python3 -V 2>&1); the grader needs Python 3.11 or later:" \
         "choose an Ubuntu 24.04 (or later) base image in the autograder settings" >&2
    exit 1
fi

python3 -m venv /autograder/venv
# Gradescope has no GPU: take torch's CPU build (a few hundred MB instead of several GB).
/autograder/venv/bin/pip install -q --upgrade pip
/autograder/venv/bin/pip install -q -r "$SOURCE/requirements.txt" \
    --index-url https://download.pytorch.org/whl/cpu --extra-index-url https://pypi.org/simple

# Warm the bytecode cache so that the first submission does not pay for it, then grade the reference
# once (``warm``): what grading makes first is made in the image, not in every container, with what
# each part costs here; the build fails unless the reference scores full marks.
/autograder/venv/bin/python -c "import torch, hypothesis, pytest, einops, jaxtyping, typeguard"
"$SOURCE/warm"
