"""Probes: the code that runs on the implementation's side of the door.

A probe takes the ``Implementation`` and plain arguments, builds whatever the
scenario needs there (modules, optimizers, files), runs it, and returns plain
data (numbers, tuples, tensors, dicts). Tests never hold an implementation's
objects; they ask a probe by name. The simplest probe, ``call``, calls one
function of the spec with the given arguments.

Probes are harness code, not staff secrets: they ship in the student handout and
run inside the isolated worker when grading.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from grader.harness.impl import Implementation


@dataclass(frozen=True)
class Probe:
    name: str
    fn: Callable[..., Any]
    subject: str  # the spec function a failure is reported against
    timeout: float  # seconds one call may take before the worker is killed


PROBES: dict[str, Probe] = {}
DEFAULT_TIMEOUT = 10.0


def probe(name: str, *, subject: str | None = None, timeout: float = DEFAULT_TIMEOUT):
    """Register ``fn(impl, *args) -> plain data`` under ``name``."""

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        if name in PROBES:
            raise ValueError(f"probe {name!r} registered twice")
        PROBES[name] = Probe(name, fn, subject or name, timeout)
        return fn

    return register


@probe("call")
def call(impl: Implementation, function: str, *args: Any) -> Any:
    """Call ``module.function(*args)`` of the implementation and return its result."""
    return impl.function(function)(*args)


@probe("constant")
def constant(impl: Implementation, name: str) -> Any:
    """The value of a module-level constant, e.g. ``roofline.PEAK_FLOPS_PER_SEC``.

    A stub leaves such a constant as ``NotImplemented`` (or ``...``); that reads
    as "not implemented", like a function that raises.
    """
    value = impl.function(name)
    if value is NotImplemented or value is Ellipsis:
        raise NotImplementedError(name)
    return value


def load_all() -> None:
    """Import every probe module so that each registers its probes."""
    from grader.harness.probes import (  # noqa: F401
        part01, part02, part03, part04, part05, part06, part07, part08, part09, part10,
    )
