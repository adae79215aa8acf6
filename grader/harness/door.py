"""The door: the one way a test reaches the code under test or the oracle.

    door.call("strides.view_strides", (2, 3), (3, 1), (6,))   -> (1,)
    door.run("model.forward_after_load", 16, 2, state, x)     -> tensor

Arguments and results are plain data and always cross the wire format
(``grader.harness.wire``), even in process, so a test sees exactly what it would
see when the implementation runs in an isolated worker: fresh plain values that
cannot lie. A ``Door`` raises the faults of ``grader.harness.faults`` when the
implementation does not answer properly.

Doors here:
* ``InProcessDoor``: the implementation runs in this process (students' runs,
  the staff's own checks). A call that runs too long is interrupted by an alarm.
* ``grader.isolation.WorkerDoor`` (staff side): the same door into a sandboxed
  worker process.
* ``grader.harness.oracle.RecordedOracle``: answers looked up in recordings.
"""

from __future__ import annotations

import inspect
import signal
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

from grader.harness import faults, wire
from grader.harness.calls import raise_for, run_probe
from grader.harness.impl import Implementation
from grader.harness.probes import PROBES, DEFAULT_TIMEOUT, load_all
from grader.harness.show import show_inputs
from grader.harness.signatures import parameter_names

DEFAULT_TEST_BUDGET = 120.0  # seconds of implementation time one test may use
# Called before every call through any door: the recorder uses it to learn that a
# test body is running with the cases drawn last (see oracle.cases).
CALL_HOOKS: list = []


class Door:
    """What every door offers. Subclasses implement ``_ask``."""

    label = "door"
    trusted = False  # a trusted door (the reference) never blames the student

    def __init__(self, *, test_budget: float = DEFAULT_TEST_BUDGET) -> None:
        self.test_budget = test_budget
        self._spent = 0.0
        self.current_test = ""
        load_all()

    # -- the API tests use -------------------------------------------------------
    def call(self, function: str, *args: Any) -> Any:
        return self.run("call", function, *args)

    def run(self, probe: str, *args: Any) -> Any:
        for hook in CALL_HOOKS:
            hook()
        subject = function_of(probe, args)
        if not self.trusted and self._spent > self.test_budget:
            raise faults.BudgetFault(
                subject, f"this test already spent {self._spent:.0f} s in the implementation "
                f"(budget {self.test_budget:.0f} s); make it faster"
            )
        started = time.monotonic()
        try:
            outcome = self._ask(probe, args)
        finally:
            self._spent += time.monotonic() - started
        if self.trusted and outcome.get("status") != "ok":
            raise faults.HarnessFault(
                f"reference {subject}",
                f"the oracle failed: {outcome.get('status')}: {outcome.get('message', '')}",
                describe_call(probe, args),
            )
        return raise_for(outcome, lambda: describe_call(probe, args))

    def begin_test(self, nodeid: str) -> None:
        self.current_test = nodeid
        self._spent = 0.0

    def close(self) -> None:
        pass

    def _ask(self, probe: str, args: tuple) -> dict:
        raise NotImplementedError


class InProcessDoor(Door):
    """The implementation runs in this process."""

    def __init__(
        self,
        impl: Implementation,
        *,
        label: str,
        trusted: bool = False,
        timeouts: bool = True,
        test_budget: float = DEFAULT_TEST_BUDGET,
    ) -> None:
        super().__init__(test_budget=test_budget)
        self.impl = impl
        self.label = label
        self.trusted = trusted
        self.timeouts = timeouts and not trusted

    def _ask(self, probe: str, args: tuple) -> dict:
        sent = wire.roundtrip(args)  # fresh copies: the callee cannot alias ours
        seconds = PROBES[probe].timeout if probe in PROBES else DEFAULT_TIMEOUT
        with _alarm(seconds if self.timeouts else None, function_of(probe, args), args):
            outcome = run_probe(self.impl, probe, sent)
        answer = wire.roundtrip(outcome)
        if type(answer) is not dict:
            raise faults.HarnessFault(probe, "the implementation's side answered with a non-dict")
        return answer


def function_of(probe: str, args: tuple) -> str:
    """The spec function a call is about: the callee of ``call``, else the probe's subject."""
    if probe in ("call", "constant") and args and isinstance(args[0], str):
        return args[0]
    known = PROBES.get(probe)
    return known.subject if known else probe


def describe_call(probe: str, args: tuple) -> str:
    if probe == "constant":
        return ""
    if probe == "call" and args:
        return show_inputs(parameter_names(args[0]), tuple(args[1:]), {})
    known = PROBES.get(probe)
    names: tuple[str, ...] = ()
    if known is not None:
        params = list(inspect.signature(known.fn).parameters)[1:]
        names = tuple(p for p in params)
    return show_inputs(names, args, {})


@contextmanager
def _alarm(seconds: float | None, function: str, args: tuple) -> Iterator[None]:
    """Interrupt a call that runs longer than ``seconds`` (main thread, POSIX only)."""
    usable = (
        seconds is not None
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return

    def expire(signum, frame):  # noqa: ARG001
        raise faults.TimeoutFault(function, seconds)

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
