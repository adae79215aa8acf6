"""Before a GPU pass grades anything: can a sandboxed worker use the device?

The grader's own device check (``grader/harness/devices.py``) runs in a fresh process
outside any sandbox. A worker has namespaces, a view of the filesystem, a user id of its
own, limits and a system-call filter between it and the driver, and any of them may stop
CUDA on some machine. So a batch that will run cuda tests first asks a clean worker, boxed
in exactly as the workers that follow, to compute on the device (the judge
``devices.compute_on``), and says at once what it met: one line at the start of the run
instead of a harness error on every cuda test of every submission.
"""

from __future__ import annotations

import re

from grader.harness.probes.devices import compute_on
from grader.harness.transport import Request
from grader.isolation.sandbox import Limits
from grader.isolation.transport import ForkServerHandle, Sandbox, Sandboxed


def problem_in_worker(server: ForkServerHandle, uid: int | None, limits: Limits, device: str = "cuda") -> str | None:
    """None if a clean worker of this batch computes on ``device``, else what it met, in a line or two."""
    worker = Sandboxed(None, Sandbox(server, uid, limits))
    try:
        [reply] = worker.exchange([Request(compute_on.name, (device,), compute_on.subject, compute_on.timeout,
                                           process="clean")])
    except Exception as exc:  # noqa: BLE001 - the worker could not even start: that is the answer
        return f"{type(exc).__name__}: {exc}"
    finally:
        worker.close()
    if isinstance(reply, BaseException):
        return f"{type(reply).__name__}: {reply}"
    outcome = reply.outcome
    if outcome.get("status") == "ok":
        return None
    return _exception_line(str(outcome.get("message") or outcome))[:600]


def _exception_line(traceback: str) -> str:
    """The line that names the exception (CUDA's errors are followed by lines of advice), else the last."""
    lines = [line for line in traceback.strip().splitlines() if line.strip()]
    named = [line for line in lines if re.match(r"[A-Za-z_][\w.]*(Error|Exception|Fault)\b.*:", line)]
    return (named or lines or [""])[-1].strip()
