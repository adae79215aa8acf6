"""The private torch APIs the harness leans on (and one of hypothesis's), in one place.

Torch has no public way to ask how many ``__torch_dispatch__`` or
``__torch_function__`` modes are on the stack, or to pop one an implementation
left behind; ``torchstate.pristine`` needs both so that a mode a student forgot
to exit cannot leak into the next test. Each entry names the attribute it reads,
so ``selftest/test_adapters.py`` fails loudly, naming it, the day a torch upgrade
moves it, instead of a cascade of harness errors on every call.
"""

from __future__ import annotations

from typing import Callable

import torch

# (where, attribute) for every private name used; the self-test walks this list
PRIVATE: tuple[tuple[str, str], ...] = (
    ("torch._C", "_len_torch_dispatch_stack"),
    ("torch._C", "_pop_torch_dispatch_stack"),
    ("torch._C", "_len_torch_function_stack"),
    ("torch._C", "_pop_torch_function_stack"),
    ("torch._C", "_current_graph_task_id"),
    ("torch._C", "_DisableTorchDispatch"),
    ("hypothesis.internal.conjecture.providers", "_get_local_constants"),
)
# (where, attribute) for every private setting the harness sets (not called: only there to be set)
SETTINGS: tuple[tuple[str, str], ...] = (
    ("torch._dynamo.config", "suppress_errors"),
)


def missing() -> list[str]:
    """The private attributes this torch lacks, by dotted name (empty when all are there)."""
    import importlib

    gone = []
    for module, name in PRIVATE:
        if not callable(getattr(importlib.import_module(module), name, None)):
            gone.append(f"{module}.{name}")
    for module, name in SETTINGS:
        if not hasattr(importlib.import_module(module), name):
            gone.append(f"{module}.{name}")
    return gone


def gather_example_constants() -> None:
    """Hypothesis reads the constants in the source of every local module imported (to draw them now and
    then), once, as its pytest plugin collects: a process that forks grading processes reads them here, once,
    and each of them inherits what was read (a twentieth of a second each, at its start)."""
    from hypothesis.internal.conjecture import providers

    gather = getattr(providers, "_get_local_constants", None)
    if callable(gather):
        gather()


def compile_runs_as_written() -> None:
    """torch.compile in a worker runs the function as written: dynamo is off (its ``disable``), so the code the
    readings read is the code that runs, and no compiler backend of a submission's own is handed the traced
    code to run something else in its place (``torch.compiler.compile(f, backend=mine)``). It gives the same
    answers as compiled code, without compiling where a worker cannot (no C++ compiler, a noexec /tmp, no
    processes of its own), and without the time compiling takes. (The readings refuse what would switch it
    back on: ``grader/harness/tamper.py``.)"""
    import torch._dynamo.config

    torch._dynamo.config.suppress_errors = True
    torch._dynamo.config.disable = True


def _private(name: str) -> Callable[[], object]:
    function = getattr(torch._C, name, None)
    if function is None:
        def unavailable() -> object:
            raise RuntimeError(f"torch {torch.__version__} has no torch._C.{name}; update grader/harness/adapters.py")
        return unavailable
    return function


dispatch_depth: Callable[[], int] = _private("_len_torch_dispatch_stack")  # type: ignore[assignment]
_pop_dispatch = _private("_pop_torch_dispatch_stack")


def pop_dispatch_mode() -> object:
    """Pop the innermost dispatch mode (``None``: the user stack, not a functional/proxy slot)."""
    return _pop_dispatch(None)  # type: ignore[call-arg]


function_depth: Callable[[], int] = _private("_len_torch_function_stack")  # type: ignore[assignment]
pop_function_mode: Callable[[], object] = _private("_pop_torch_function_stack")
# the id of the backward autograd's engine is running on this thread, -1 outside one (Part 7's watch)
graph_task_id: Callable[[], int] = _private("_current_graph_task_id")  # type: ignore[assignment]


def unseen_by_modes() -> object:
    """A context in which torch ops run with no ``__torch_dispatch__`` mode seeing them: the work a probe does
    inside a call of the submission's (Part 6's, inside each einops step), which a mode the submission entered
    around the call would see, and so tell a watched call from a plain one by."""
    return _private("_DisableTorchDispatch")()
