"""Command line of the grader (staff side). See ``python -m grader --help``."""

import os
import sys

from grader.cli import main

code = main()
if len(sys.argv) > 1 and sys.argv[1] == "grade" and type(code) is int:
    # Every result is written and every process it started is gone (the batch closed them): leave
    # without tearing the interpreter down, which with torch, pytest and hypothesis loaded frees objects
    # nobody reads again for a quarter of a second, at the end of every Gradescope run.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
raise SystemExit(code)
