"""Root conftest: every run (student, staff, grader) goes through the harness plugin.

The staff repository adds its own plugin (the judges' code, the sandbox); the
student handout has no such file, so it runs the harness alone.
"""

from pathlib import Path

pytest_plugins = ["grader.harness.plugin"]
if (Path(__file__).parent / "grader" / "staff_plugin.py").exists():
    pytest_plugins.append("grader.staff_plugin")
