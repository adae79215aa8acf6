"""The staff's pytest plugin: the judges' code, and (``--isolate``) the sandbox.

Loaded by the root ``conftest.py`` of the staff repository only. It answers the
harness's hooks (``grader.harness.hooks``): with ``--isolate`` the
implementation runs in sandboxed workers and the harness's own measurements in
a clean one; without, both run in this process.
"""

from __future__ import annotations

import pytest

import grader.judges  # noqa: F401 - gives every judge declared in the harness its code


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("assignment")
    group.addoption("--isolate", action="store_true", default=False,
                    help="run the implementation in sandboxed worker processes (staff only)")
