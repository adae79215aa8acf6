"""Probes for Part 7: did a gradient "by hand" secretly use autograd?

The inputs never require grad, so a formula written with plain tensor ops builds
no graph and runs no backward pass. Three independent signs of automatic
differentiation are watched while the student's function runs:

* graph: a torch op whose output requires grad (autograd recording a graph, as
  ``requires_grad_()``, ``torch.func.grad`` or ``jacrev`` need);
* backward: a run of the autograd engine (``Tensor.backward``,
  ``torch.autograd.grad``, ``torch.autograd.functional.*`` and ``torch.func``'s
  reverse mode all end in ``Variable._execution_engine.run_backward``);
* forward_ad: a dual tensor made for forward-mode AD (``torch.func.jacfwd``,
  ``torch.autograd.forward_ad``), whatever name it was imported under.

Saved-tensor hooks are not used: ``torch.func`` refuses to run under them, which
would turn an autograd solution into a confusing crash instead of a clear verdict.
"""

import contextlib
from typing import Any, Callable, Iterator

import torch
import torch._functorch.predispatch as predispatch
from torch.autograd.variable import Variable
from torch.overrides import TorchFunctionMode
from torch.utils._pytree import tree_leaves

from grader.harness.impl import Implementation
from grader.harness.probes import probe


class _Watch(TorchFunctionMode):
    """Counts torch ops whose outputs require grad."""

    def __init__(self) -> None:
        super().__init__()
        self.graph = 0

    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if any(isinstance(t, torch.Tensor) and t.requires_grad for t in tree_leaves(out)):
            self.graph += 1
        return out


class _CountingEngine:
    """Stands in for autograd's engine object and counts backward passes."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.runs = 0

    def run_backward(self, *args: Any, **kwargs: Any) -> Any:
        self.runs += 1
        return self.engine.run_backward(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)


@contextlib.contextmanager
def _watching() -> Iterator[dict[str, int]]:
    counts = {"graph": 0, "backward": 0, "forward_ad": 0}
    engine = _CountingEngine(Variable._execution_engine)
    make_dual = predispatch._make_dual

    def counting_make_dual(*args: Any, **kwargs: Any) -> Any:
        counts["forward_ad"] += 1
        return make_dual(*args, **kwargs)

    watch = _Watch()
    Variable._execution_engine = engine
    predispatch._make_dual = counting_make_dual  # fwAD.make_dual looks it up at every call
    try:
        with watch:
            yield counts
    finally:
        Variable._execution_engine = engine.engine
        predispatch._make_dual = make_dual
        counts["graph"] = watch.graph
        counts["backward"] = engine.runs


def _autograd_use(fn: Callable[..., Any], *args: torch.Tensor | float) -> dict[str, Any]:
    with _watching() as counts:
        result = fn(*args)
    # a result still attached to a graph is autograd at work too (and a leak of memory)
    counts["result_has_grad_fn"] = any(
        isinstance(t, torch.Tensor) and (t.grad_fn is not None or t.requires_grad)
        for t in tree_leaves(result)
    )
    return counts


@probe("gradients.autograd_in_squared_error_grad", subject="gradients.squared_error_grad")
def autograd_in_squared_error_grad(impl: Implementation, x: torch.Tensor, w: torch.Tensor,
                                   target: float) -> dict[str, Any]:
    return _autograd_use(impl.function("gradients.squared_error_grad"), x, w, target)


@probe("gradients.autograd_in_linear_backward", subject="gradients.linear_backward")
def autograd_in_linear_backward(impl: Implementation, x: torch.Tensor, w: torch.Tensor,
                                grad_y: torch.Tensor) -> dict[str, Any]:
    return _autograd_use(impl.function("gradients.linear_backward"), x, w, grad_y)
