"""A graded test's inputs: drawn by hypothesis, or replayed from a recording.

Graded tests use this module's ``given`` and ``example`` instead of hypothesis's
(they wrap them, with hypothesis's public API only):

    @given(case=S.view_cases())
    @example(case=((3, 2), (1, 3), (6,)))
    def test_view_strides(impl, oracle, case): ...

* live: hypothesis draws ``case`` from the strategy and shrinks a failure.
* record: the same, and every example that reaches the test body is written
  down, with every answer the oracle gives (``grader.harness.recording``).
* replay: hypothesis is not used at all. The test body is called directly over
  the explicit examples, then the recorded ones, simplest first, so the first
  failure is the simplest recorded failing input (what shrinking would find).
  The handout always replays; so does grading.

The run's state (mode, recording, the running test) is one ``Run`` object, kept
in ``config.stash`` by the plugin and reachable here through one context
variable.
"""

from __future__ import annotations

import functools
import inspect
import time
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Literal

import hypothesis

from grader.harness import wire
from grader.harness.recording import Recorder, Recording, example_id

Mode = Literal["live", "record", "replay"]


@dataclass
class Run:
    """One pytest session of graded tests: how inputs are drawn and answers found."""

    mode: Mode = "live"
    recording: Recording | None = None  # replay: the examples and answers
    recorder: Recorder | None = None  # record: where examples and answers go
    test: str = ""  # the running test's id ("test_part01_strides.py::test_view_strides")


CURRENT: ContextVar[Run] = ContextVar("graded_run", default=Run())


def current() -> Run:
    return CURRENT.get()


@dataclass(frozen=True)
class Cases:
    """What ``given`` knows of a test: its drawn parameters, explicit examples and body."""

    params: tuple[str, ...]
    examples: tuple[dict[str, Any], ...]
    body: Callable[..., Any]

    def fixtures(self, available: dict[str, Any]) -> dict[str, Any]:
        """The body's other arguments (``impl``, ``oracle``) from pytest's fixtures."""
        return {name: available[name] for name in _parameters(self.body) if name not in self.params and name in available}

    def replayed(self, recording: Recording, test: str) -> Iterator[dict[str, Any]]:
        """The explicit examples, then the recorded ones not among them, simplest first (lazily)."""
        yield from self.examples
        # compared as recorded (each value's wire text), not decoded and encoded again
        seen = {example_id({name: wire.encode(value) for name, value in e.items()}) for e in self.examples}
        for example in recording.examples_of(test, skip=seen):
            if set(example) == set(self.params):
                yield example


@functools.lru_cache(maxsize=None)
def _parameters(fn: Callable[..., Any]) -> tuple[str, ...]:
    return tuple(inspect.signature(fn).parameters)


_EXAMPLES = "__graded_examples__"
_CASES = "__graded_cases__"


def example(**kwargs: Any) -> Callable:
    """An explicit example (hypothesis's ``example``, also kept for replay)."""

    def decorate(fn: Callable) -> Callable:
        setattr(fn, _EXAMPLES, [kwargs, *getattr(fn, _EXAMPLES, [])])  # decorators apply bottom-up
        return hypothesis.example(**kwargs)(fn)

    return decorate


def given(**strategies: Any) -> Callable:
    """The test's drawn parameters (hypothesis's ``given``, replayable, recorded when recording)."""

    def decorate(fn: Callable) -> Callable:
        params = tuple(strategies)

        @functools.wraps(fn)
        def body(*args: Any, **kwargs: Any) -> Any:
            run = current()
            if run.recorder is None:
                return fn(*args, **kwargs)
            run.recorder.example(run.test, {name: kwargs[name] for name in params})
            started = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:  # what the body costs, without hypothesis's drawing: what replaying it will cost
                run.recorder.spent(run.test, time.perf_counter() - started)

        test = hypothesis.given(**strategies)(body)
        setattr(test, _CASES, Cases(params, tuple(getattr(fn, _EXAMPLES, ())), body))
        return test

    return decorate


def cases_of(test: Callable) -> Cases | None:
    return getattr(test, _CASES, None)


