"""Probes for Part 6: the named functions called with einops taken away.

Whether a function uses einops is read from its source; a call of einops in a branch that never
runs reads as a use all the same. So a function is also called once with einops unable to reach a
tensor: a function that still answers never needed einops. Like every probe this one reports what
happened and nothing else, and a report can only fail the test, never pass it: code that notices
einops is gone and raises on purpose is back where the reading alone leaves it.
"""

from __future__ import annotations

from typing import Any

from grader.harness.impl import Implementation
from grader.harness.probe import probe

# einops finds the backend of a tensor on every call through get_backend, looked up at call time in
# each of these modules: whatever name a submission calls einops by, the call reaches one of them
EINOPS_MODULES = ("einops.einops", "einops.packing", "einops._backends")


class EinopsTakenAway(RuntimeError):
    """What einops raises while it is taken away."""


def _taken_away(tensor: Any) -> Any:
    raise EinopsTakenAway("einops is taken away for this call")


@probe(subject="named.einops")  # a module read by its source: answered where named.py was imported alone
def without_einops(impl: Implementation, function: str, *args: Any) -> str:
    """``function(*args)`` with einops unable to reach a tensor: "returned" if it answered anyway,
    else the name of the exception it raised."""
    import importlib

    fn = impl.function(function)
    modules = [importlib.import_module(name) for name in EINOPS_MODULES]
    saved = [module.get_backend for module in modules]
    for module in modules:
        module.get_backend = _taken_away
    try:
        fn(*args)
    except Exception as error:  # noqa: BLE001 - whatever it raised, it did not answer
        return type(error).__name__
    finally:
        for module, original in zip(modules, saved):
            module.get_backend = original
    return "returned"
