"""Root conftest: every run (student, staff, grader) goes through the harness plugin."""

pytest_plugins = ["grader.harness.plugin"]
