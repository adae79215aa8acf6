"""The private torch attributes the harness uses still exist, and do what it relies on.

When a torch upgrade moves one, this fails naming it, before any graded run does.
"""

from __future__ import annotations

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from grader.harness import adapters
from grader.harness.torchstate import pristine


def test_every_private_attribute_the_harness_uses_exists():
    assert adapters.missing() == [], f"this torch ({torch.__version__}) lacks {adapters.missing()}: update grader/harness/adapters.py"


class Passthrough(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def test_a_mode_left_on_is_counted_and_popped_by_pristine():
    before = adapters.dispatch_depth(), adapters.function_depth()
    with pristine():
        TorchDispatchMode().__enter__()  # an implementation that forgets to exit its mode
        Passthrough().__enter__()
        assert adapters.dispatch_depth() == before[0] + 1
        assert adapters.function_depth() == before[1] + 1
    assert (adapters.dispatch_depth(), adapters.function_depth()) == before


def test_the_list_names_every_private_torch_use_in_the_harness():
    """No private torch name outside adapters.py: a new one must be listed (and so self-tested)."""
    import ast
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[1] / "grader"
    offenders = []
    for path in root.rglob("*.py"):
        if path.name == "adapters.py":
            continue
        lines = path.read_text().splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):  # code, not the names a reading's lists hold as text
            if isinstance(node, ast.Attribute):
                used = [ast.unparse(node)]
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                used = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            else:
                continue
            if any(re.match(r"torch\._[A-Za-z]", name) and not (isinstance(node, ast.Import) and name == "torch._dynamo")
                   for name in used):
                offenders.append(f"{path.relative_to(root.parent)}:{node.lineno}: {lines[node.lineno - 1].strip()}")
    assert not offenders, "private torch names outside grader/harness/adapters.py:\n" + "\n".join(offenders)


COMPILED_AS_WRITTEN = """
import torch
from grader.harness.adapters import compile_runs_as_written

seen = []


def mine(gm, example_inputs):  # a backend of the submission's own: it would run in place of f
    seen.append("mine")
    return lambda *args: (torch.zeros(3),)


def f(x):
    return x * 2


compile_runs_as_written()
g = torch.compile(f, backend=mine)
print(g(torch.ones(3)).tolist(), seen)
"""


def test_a_worker_runs_compiled_code_as_written_and_no_backend_of_a_submission_s_own():
    """The fork server's setting (every worker's): torch.compile with a backend of the submission's own runs the
    function as written, and never calls the backend (which could run anything in its place)."""
    import subprocess
    import sys

    from selftest.grading import ROOT

    run = subprocess.run([sys.executable, "-c", COMPILED_AS_WRITTEN], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert run.stdout.strip() == "[2.0, 2.0, 2.0] []", run.stdout + run.stderr[-2000:]
