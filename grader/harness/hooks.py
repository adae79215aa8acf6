"""Hooks the harness asks of other plugins: where the implementation and the judges run.

The harness answers both in process. The staff grader's plugin
(``grader/staff_plugin.py``) answers them with sandboxed workers when asked to
``--isolate``; the harness knows nothing of how.
"""

from __future__ import annotations

import pytest


@pytest.hookspec(firstresult=True)
def pytest_assignment_transport(config: pytest.Config, implementation, label: str):
    """The transport to ``implementation`` (a ``grader.harness.impl.Implementation``): where its
    code runs. First non-None answer wins."""


@pytest.hookspec(firstresult=True)
def pytest_assignment_clean_transport(config: pytest.Config):
    """A transport to a process where no submission ever ran, for the harness's own
    measurements; None: measure in this process."""
