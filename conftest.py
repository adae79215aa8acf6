"""Root conftest: every run (student, staff, grader) goes through the harness plugin.

The staff repository adds its own plugin (the judges' code, the sandbox); the
student handout has no such file, so it runs the harness alone.
"""

import gc
import importlib
from pathlib import Path

import pytest

pytest_plugins = ["grader.harness.plugin"]
if (Path(__file__).parent / "grader" / "staff_plugin.py").exists():
    pytest_plugins.append("grader.staff_plugin")

# The plugins import torch and hypothesis: a few hundred thousand objects that live as long as the
# run. Imported here with the cyclic collector paused, then frozen out of its sight, they are never
# walked by a collection (about half a second of a run).
pytest.register_assert_rewrite(*pytest_plugins)  # as pytest would have, importing them itself
_collecting = gc.isenabled()
gc.disable()
try:
    for _plugin in pytest_plugins:
        importlib.import_module(_plugin)
finally:
    gc.freeze()
    if _collecting:
        gc.enable()
