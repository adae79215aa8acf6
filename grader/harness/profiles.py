"""Hypothesis profiles.

student   the default: quick, random, remembers failures in .hypothesis/ so that a
          failing input is tried first on the next run.
ci        hypothesis's built-in ``ci`` profile (derandomized, no database),
          extended; loaded when the CI environment variable is set.
grading   more examples, no database (a submission must not see another's
          failures), seeded by the grader's own seed.
record    what the handout builder runs the reference under to record cases.
mutants   the self-test that runs every mutant: derandomized, fewer examples.

``deadline=None`` everywhere: torch calls vary in time on shared machines.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings

QUIET_CHECKS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
# explain costs time and its notes are replaced by our own message anyway
PHASES = (Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink)

COMMON = dict(
    deadline=None,
    report_multiple_bugs=False,
    suppress_health_check=QUIET_CHECKS,
    phases=PHASES,
    print_blob=False,
)

STUDENT_EXAMPLES = 40
GRADING_EXAMPLES = 120


def register() -> None:
    # Every profile but ``ci`` starts from hypothesis's own defaults, never from whatever profile is
    # loaded now: where CI is set hypothesis loads its derandomized ``ci`` profile at import, and a
    # grading profile built on it would draw the very inputs the handout's recording answers.
    base = settings.get_profile("default")
    settings.register_profile("student", base, max_examples=STUDENT_EXAMPLES, derandomize=False, **COMMON)
    settings.register_profile(
        "ci", parent=settings.get_profile("ci"), max_examples=STUDENT_EXAMPLES, **COMMON
    )
    settings.register_profile("grading", base, max_examples=GRADING_EXAMPLES, database=None, derandomize=False,
                              **COMMON)
    settings.register_profile("record", base, max_examples=60, database=None, derandomize=True, **COMMON)
    # a mutant only has to fail: no need to shrink its failure to the smallest input
    settings.register_profile("mutants", base, max_examples=15, database=None, derandomize=True,
                              **{**COMMON, "phases": (Phase.explicit, Phase.reuse, Phase.generate)})


def default_profile() -> str:
    return "ci" if os.environ.get("CI") else "student"
