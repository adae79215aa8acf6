"""Put torch's process-wide state back after every call into an implementation.

An implementation may change the default dtype, turn grad mode off, leave a
dispatch mode or autocast on, change the thread count or reseed the RNG. None of
that may leak into the next test (which would turn one bug into a cascade), so
each call runs inside ``pristine()``, which starts from the known state and
restores it afterwards.

Restoring is not forgiving, though: a function that leaves the caller's default dtype,
grad mode, autocast, default device or a dispatch mode changed breaks the program that
called it, whatever it returned. ``pristine()`` yields a function that names what the call
left changed (read before the restore); the runner fails the call on it. Thread count, the
RNG's state and float32 matmul precision are restored without a word: a function may draw
random numbers, the thread count changes no result, and a timing function may ask for TF32
on purpose (a side effect, but one a course may teach).
"""

from __future__ import annotations

import contextlib
from typing import Callable, Iterator

import torch

from grader.harness.adapters import dispatch_depth as _dispatch_depth
from grader.harness.adapters import function_depth as _function_depth
from grader.harness.adapters import pop_dispatch_mode, pop_function_mode

DEFAULT_DTYPE = torch.float32


@contextlib.contextmanager
def pristine(seed: int = 0) -> Iterator[Callable[[], list[str]]]:
    threads = torch.get_num_threads()
    rng = torch.random.get_rng_state()
    deterministic = torch.are_deterministic_algorithms_enabled()
    dispatch_depth = _dispatch_depth()
    function_depth = _function_depth()
    torch.set_default_dtype(DEFAULT_DTYPE)
    precision = torch.get_float32_matmul_precision()
    if precision != "highest":  # plain fp32 matmuls (no TF32), as the harness's own timings use
        torch.set_float32_matmul_precision("highest")
    if threads != 1:  # the tests' tensors are tiny: a thread pool only adds overhead and noise
        torch.set_num_threads(1)
    # the CPU generator only: torch.manual_seed also queues CUDA seeding and formats a stack
    torch.default_generator.manual_seed(seed)

    def left_changed() -> list[str]:
        """What of the caller's state the call left changed, in words (empty: nothing)."""
        changed = []
        if torch.get_default_dtype() != DEFAULT_DTYPE:
            changed.append(f"the default dtype is {torch.get_default_dtype()} (was {DEFAULT_DTYPE})")
        if not torch.is_grad_enabled():
            changed.append("grad mode is off (torch.set_grad_enabled(False) or no_grad without a with-block)")
        for device in ("cpu", "cuda"):
            try:
                if torch.is_autocast_enabled(device):
                    changed.append(f"autocast is on for {device}")
            except (RuntimeError, TypeError):
                pass
        if torch.get_default_device().type != "cpu":
            changed.append(f"the default device is {torch.get_default_device()} (was cpu)")
        if _dispatch_depth() > dispatch_depth or _function_depth() > function_depth:
            changed.append("a torch dispatch or function mode is still active (entered, never exited)")
        return changed

    try:
        with torch.enable_grad():
            yield left_changed
    finally:
        while _dispatch_depth() > dispatch_depth:
            pop_dispatch_mode()
        while _function_depth() > function_depth:
            pop_function_mode()
        for device in ("cpu", "cuda"):
            try:
                if torch.is_autocast_enabled(device):
                    torch.set_autocast_enabled(device, False)
            except (RuntimeError, TypeError):
                pass
        torch.set_default_dtype(DEFAULT_DTYPE)
        torch.set_grad_enabled(True)
        if torch.get_float32_matmul_precision() != precision:
            torch.set_float32_matmul_precision(precision)
        if torch.are_deterministic_algorithms_enabled() != deterministic:
            torch.use_deterministic_algorithms(deterministic)  # imports dynamo: only when needed
        if torch.get_num_threads() != threads:
            torch.set_num_threads(threads)
        torch.random.set_rng_state(rng)
        if torch.get_default_device().type != "cpu":
            torch.set_default_device(None)
