"""Command line of the grader (staff side). See ``python -m grader --help``."""

from grader.cli import main

raise SystemExit(main())
