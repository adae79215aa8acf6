"""Put torch's process-wide state back after every call into an implementation.

An implementation may change the default dtype, turn grad mode off, leave a
dispatch mode or autocast on, change the thread count or reseed the RNG. None of
that may leak into the next test (which would turn one bug into a cascade), so
each call runs inside ``pristine()``, which starts from the known state and
restores it afterwards.
"""

from __future__ import annotations

import contextlib
from typing import Iterator

import torch

from grader.harness.adapters import dispatch_depth as _dispatch_depth
from grader.harness.adapters import function_depth as _function_depth
from grader.harness.adapters import pop_dispatch_mode, pop_function_mode

DEFAULT_DTYPE = torch.float32


@contextlib.contextmanager
def pristine(seed: int = 0) -> Iterator[None]:
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
    try:
        with torch.enable_grad():
            yield
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
