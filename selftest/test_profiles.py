"""The hypothesis profiles mean the same wherever they run.

Where CI is set, hypothesis loads its derandomized ``ci`` profile at import. A grading profile
that inherited from it drew, whatever the grader's seed, the inputs the handout's recording was
made from, and a lookup table of the handout's answers passed grading (caught once, on CI only).
"""

import os
import subprocess
import sys

import pytest

SHOW = """
from hypothesis import settings
from grader.harness import profiles
profiles.register()
for name in ("student", "grading", "record", "ci", "mutants"):
    s = settings.get_profile(name)
    print(name, s.derandomize, s.database is None, s.max_examples)
"""


def profiles_where(ci: bool) -> dict[str, tuple[str, ...]]:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci:
        env["CI"] = "true"
    out = subprocess.run([sys.executable, "-c", SHOW], env=env, capture_output=True, text=True, check=True,
                         cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__)))).stdout
    return {line.split()[0]: tuple(line.split()[1:]) for line in out.splitlines()}


@pytest.mark.parametrize("ci", [False, True], ids=["no CI", "CI set"])
def test_grading_is_random_and_forgets_wherever_it_runs(ci):
    shown = profiles_where(ci)
    assert shown["grading"] == ("False", "True", "120"), shown
    assert shown["student"][0] == "False", shown
    assert shown["record"][:2] == ("True", "True") and shown["mutants"][:2] == ("True", "True"), shown
    assert shown["ci"][:2] == ("True", "True"), shown
