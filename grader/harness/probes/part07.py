"""Probes for Part 7: a gradient function called with every op it runs seen from below autograd.

Whether a gradient function uses autograd is read from its source (``tests/test_part07_gradients.py``), but
code can reach autograd by ways no reading follows: a method looked up by a name built at run time (a
``unittest.TestCase`` runs the method it is named after), a keyword given by a name built at run time, an
optimizer that reads ``.grad`` for it. So the function is also called with a dispatch mode on, which sees
each ATen op as it runs, below autograd: an op given or making a tensor that requires grad means an
autograd graph was built, and an op run by autograd's engine (``adapters.graph_task_id``) means a
backward ran. Modes do not follow code into another thread, so a thread of the implementation's that ran during
the call (started by it, or earlier) is reported too. Like every probe this one reports what happened (the test
judges it), and its report can only fail the test: code that gets past it is back where the reading alone
leaves it.
"""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass
from typing import Any

from grader.harness.impl import Implementation
from grader.harness.probe import Report, probe


@dataclass(frozen=True)
class Watched(Report):
    """What the ops ``function(*args)`` ran showed, and what it returned: the test checks
    the answer too, so that a call watched on inputs never asked before cannot answer from a table of earlier
    calls' results without running anything."""

    graph: bool  # an op was given, or made, a tensor that requires grad
    engine: bool  # an op ran inside autograd's engine (a backward)
    dual: bool  # an op ran inside a forward-mode level (make_dual, torch.func.jacfwd, jvp): no graph, no engine
    threads: bool  # a thread of its own ran during the call (started by it, or before it, at import)
    answer: Any  # what the call returned


# ops only forward-mode autograd runs: make_dual's checks, and the zero tangent given what is not dual
FORWARD_MODE_OPS = ("_make_dual", "_has_same_storage_numel", "_efficientzerotensor")


@probe(subject="gradients.autograd")  # a module read by its source: answered where gradients.py was imported alone
def autograd_watched(impl: Implementation, function: str, *args: Any) -> Watched:
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_leaves

    from grader.harness.adapters import graph_task_id

    seen = {"graph": False, "engine": False, "threads": False, "dual": False}
    import torch.autograd.forward_ad as forward_ad

    class Watch(TorchDispatchMode):
        @classmethod
        def _should_skip_dynamo(cls) -> bool:
            return False  # (the default wraps __torch_dispatch__ for dynamo, importing it at the first op)

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            if graph_task_id() != -1:
                seen["engine"] = True
            # forward mode: the level torch's Python entry points open, or the ops only forward mode runs (a dual
            # made, and the zero tangents of what is not dual), however it was entered (torch._C's own calls too)
            if forward_ad._current_level != -1 \
                    or getattr(getattr(func, "overloadpacket", None), "__name__", "") in FORWARD_MODE_OPS:
                seen["dual"] = True
            if not seen["graph"] and any(isinstance(t, torch.Tensor) and t.requires_grad
                                         for t in tree_leaves((args, kwargs, out))):
                seen["graph"] = True
            return out

    def started(*_: Any) -> None:  # the first profile event of a thread threading started: once, then off
        seen["threads"] = True
        sys.setprofile(None)

    fn = impl.function(function)
    before = _other_threads_cpu()
    threading.setprofile(started)
    try:  # what it raises is the test's to say (its inputs are its own, no plain call's)
        with Watch():
            answer = fn(*args)
    finally:
        threading.setprofile(None)
    # a thread started earlier (as the module was imported) that the call hands its work to runs it unseen by
    # the mode, which watches this thread alone: one that ran during the call (its CPU clock moved, read from
    # the kernel; a thread that ended meanwhile ran too) counts; one left waiting (a part run earlier in this
    # process started it) does not
    after = _other_threads_cpu()
    ran = any(spent is None or after.get(ident) is None or after[ident] > spent for ident, spent in before.items())
    return Watched(seen["graph"], seen["engine"], seen["dual"], seen["threads"] or ran, answer)


def _other_threads_cpu() -> dict[int, float | None]:
    """Each Python thread but this one and the harness's (``lookahead``): its CPU seconds (None: unreadable).
    Threads as the interpreter knows them (``sys._current_frames``), not as their objects say (a Thread subclass
    may say its ident is None, and ``_thread`` starts threads ``threading`` never lists)."""
    from grader.harness.lookahead import HARNESS_THREADS, THREADS_BEFORE

    harness = {thread.ident for thread in HARNESS_THREADS} | THREADS_BEFORE
    spent: dict[int, float | None] = {}
    for ident in set(sys._current_frames()) - harness - {threading.get_ident()}:
        try:
            spent[ident] = time.clock_gettime(time.pthread_getcpuclockid(ident))
        except (AttributeError, OSError, ValueError, OverflowError):
            spent[ident] = None
    return spent
