"""The staff's pytest plugin: the judges' code, and (``--isolate``) the sandbox.

Loaded by the root ``conftest.py`` of the staff repository only. It answers the
harness's hooks (``grader.harness.hooks``): with ``--isolate`` the
implementation runs in sandboxed workers and the harness's own measurements in
a clean one; without, both run in this process. The batch grader registers its
own ``SandboxPlugin``, sharing one fork server among all its grading processes.
"""

from __future__ import annotations

import pytest

import grader.judges  # noqa: F401 - gives every judge declared in the harness its code

PLUGIN_NAME = "assignment-sandbox"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("assignment")
    group.addoption("--isolate", action="store_true", default=False,
                    help="run the implementation in sandboxed worker processes (staff only)")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("isolate") and config.pluginmanager.get_plugin(PLUGIN_NAME) is None:
        config.pluginmanager.register(SandboxPlugin(None), PLUGIN_NAME)


class SandboxPlugin:
    """Sandboxed workers for the implementation (``main`` and ``separate``) and the judges (``clean``)."""

    def __init__(self, sandbox) -> None:
        self.sandbox = sandbox  # a grader.isolation.transport.Sandbox; None: make one (and its fork server)
        self._owned = None

    def _shared(self):
        from grader.harness.devices import cuda_usable
        from grader.isolation.sandbox import Limits
        from grader.isolation.transport import ForkServerHandle, Sandbox

        if self.sandbox is None:
            # CUDA reserves far more address space than it uses: with a GPU, watch memory instead of capping it
            self._owned = ForkServerHandle()
            self.sandbox = Sandbox(self._owned, limits=Limits(watch_memory=cuda_usable()))
        return self.sandbox

    @pytest.hookimpl(tryfirst=True)
    def pytest_assignment_transport(self, config, implementation, label):
        from grader.isolation.transport import Sandboxed

        return Sandboxed(implementation.package_dir, self._shared())

    @pytest.hookimpl(tryfirst=True)
    def pytest_assignment_clean_transport(self, config):
        from grader.isolation.transport import Sandboxed

        return Sandboxed(None, self._shared())

    def pytest_unconfigure(self, config) -> None:
        if self._owned is not None:
            self._owned.close()
