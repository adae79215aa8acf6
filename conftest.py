"""Root conftest: every run (student, staff, grader) goes through the harness plugin.

The staff repository adds its own plugin (the judges' code, the sandbox); the
student handout has no such file, so it runs the harness alone.
"""

import importlib
from pathlib import Path

import pytest

from grader.harness.longlived import freeze_at_exit, long_lived

pytest_plugins = ["grader.harness.plugin"]
if (Path(__file__).parent / "grader" / "staff_plugin.py").exists():
    pytest_plugins.append("grader.staff_plugin")

# The plugins import torch and hypothesis, which live as long as the run: imported here, out of the
# collector's way (about half a second of a run; see grader/harness/longlived.py).
pytest.register_assert_rewrite(*pytest_plugins)  # as pytest would have, importing them itself
with long_lived():
    for _plugin in pytest_plugins:
        importlib.import_module(_plugin)
freeze_at_exit()
