"""The self-tests' order: the longest files first, so that `make test`'s two workers end together.

xdist (``--dist loadfile``) hands each worker a whole file at a time, in the order collected; left to itself
it orders them by their count of tests, which put files of many quick tests first and one whose module
fixture grades a batch for minutes last, its worker running on alone. Longest first, a worker that drew a
long file draws the short ones later, while the other works through the rest.
"""

from __future__ import annotations

# the files whose module fixtures grade whole batches (and the handout's as-a-student runs), by their share of
# `make test` (pytest --durations, summed by file), most first; a file not named comes after them all
LONGEST_FIRST = (
    "test_graded_suite.py",  # the mutants, the lazy modules, the stubs and the reference, graded
    "test_grader_outputs.py",  # the Gradescope layout, recordings made and replayed against live draws
    "test_handout.py",  # the solution proof, a student's fresh environment and runs
    "test_forged_observations.py",  # every forgery graded with isolation on
    "test_messages.py",
    "test_grader_attacks.py",  # the hostile batch
    "test_sandbox.py",
    "test_hidden.py",  # the hidden bugs, graded
)


def pytest_collection_modifyitems(items) -> None:
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # (stable: a file's tests keep their order)
