"""What happened to each graded test in one pytest run, as frozen plain records.

``Collector`` is a pytest plugin object: pass it to ``pytest.main(plugins=[...])``
and read ``collector.outcomes`` afterwards. It stores only plain values, so the
record can cross a pipe as JSON.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import pytest

from grader.rubric import test_id

# status values
PASSED, FAILED, PENDING = "passed", "failed", "pending"
DID_NOT_RUN = "did not run"  # the kind of a failed test that never ran: skipped, or its run never reached it
NOT_SELECTED = "this test did not run: not selected in this run (-m or -k)"  # the message of one left out


@dataclass(frozen=True)
class TestOutcome:
    __test__ = False  # a record, not a test class for pytest to collect

    test: str  # rubric key, e.g. "test_part01_strides.py::test_view_strides"
    status: str  # passed | failed | pending
    kind: str = ""  # failure kind: wrong, raised, not implemented, timed out, crashed, harness error...
    message: str = ""
    seconds: float = 0.0
    # what failed without the example or any text the implementation's process sent (``Fault.summary``):
    # what may be shown while the graded examples must stay secret; empty where the message is only the grader's
    summary: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "TestOutcome":
        return cls(
            test=str(d["test"]), status=str(d["status"]), kind=str(d.get("kind", "")),
            message=str(d.get("message", "")), seconds=float(d.get("seconds", 0.0)),
            summary=str(d.get("summary", "")),
        )


@dataclass(eq=False)  # pytest registers plugins in sets: keep identity hashing
class Collector:
    """Gathers one ``TestOutcome`` per test from pytest's reports."""

    outcomes: dict[str, TestOutcome] = field(default_factory=dict)
    collection_errors: list[str] = field(default_factory=list)
    max_message: int = 3000

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.collection_errors.append(f"{report.nodeid}: {str(report.longrepr)[-2000:]}")

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        # left out by the run's own selection (-m, -k): not run, and said so, not "the run stopped early".
        # A cuda test so left out waits for the GPU pass that grades it, as a skipped one does (-m "not cuda")
        for item in items:
            key = test_id(item.nodeid)
            if item.get_closest_marker("cuda") is not None:
                outcome = TestOutcome(key, PENDING, "pending", "not selected in this run (-m or -k): a GPU pass "
                                                               "grades it (python -m grader merge)")
            else:
                outcome = TestOutcome(key, FAILED, DID_NOT_RUN, NOT_SELECTED)
            self.outcomes.setdefault(key, outcome)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        key = test_id(report.nodeid)
        props = dict(report.user_properties)
        previous = self.outcomes.get(key)
        seconds = report.duration + (previous.seconds if previous else 0.0)
        if report.when == "call" or previous is None or report.failed:
            if report.skipped and "cuda" in report.keywords:  # a GPU pass grades it: its points wait for that
                status, kind, message = PENDING, "pending", _skip_reason(report)
            elif report.skipped:  # nothing grades it later: a test that never ran scores 0
                status, kind, message = FAILED, DID_NOT_RUN, f"this test did not run: {_skip_reason(report)}"
            elif report.passed:
                if previous is not None and previous.status == FAILED:
                    return  # setup failed earlier; keep that
                status, kind, message = PASSED, "", ""
            else:
                status = FAILED
                kind = str(props.get("failure_kind", "error" if report.when == "call" else "harness error"))
                message = str(props.get("message") or report.longreprtext)
                if report.when != "call":
                    kind, message = "harness error", f"error in test {report.when}:\n{report.longreprtext}"
            summary = str(props.get("summary", "")) if status == FAILED and report.when == "call" else ""
            self.outcomes[key] = TestOutcome(key, status, kind, message[-self.max_message:], seconds,
                                             summary[-self.max_message:])
        elif previous is not None:
            self.outcomes[key] = TestOutcome(previous.test, previous.status, previous.kind,
                                             previous.message, seconds, previous.summary)


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)
