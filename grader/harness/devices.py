"""Is there a CUDA device this run can really use?

``torch.cuda.is_available()`` answers from the CUDA runtime, which a process that
forks must not start; with ``PYTORCH_NVML_BASED_CUDA_CHECK`` it answers from NVML
instead, which also says yes for a GPU that CUDA cannot use (a CPU-only torch on
a GPU machine, a broken driver). So the grader asks once, in a fresh process that
really allocates on the device, and tells every process it starts the answer in
``ASSIGNMENT_CUDA``.
"""

from __future__ import annotations

import os
import subprocess
import sys

ENV = "ASSIGNMENT_CUDA"
CHECK = "import torch; torch.zeros(1, device='cuda').add_(1); torch.cuda.synchronize(); print(torch.cuda.device_count())"


def _told() -> bool | None:
    """What a parent already decided (``ASSIGNMENT_CUDA``), if it did."""
    told = os.environ.get(ENV)
    return told == "1" if told in ("0", "1") else None


def cuda_usable() -> bool:
    told = _told()
    if told is not None:
        return told
    if os.environ.get("PYTORCH_NVML_BASED_CUDA_CHECK"):  # this process must not start CUDA: ask another
        return check_in_fresh_process()
    import torch

    return torch.cuda.is_available()


def check_in_fresh_process(timeout: float = 180.0) -> bool:
    """Whether a fresh interpreter can allocate and compute on the CUDA device."""
    env = {k: v for k, v in os.environ.items() if k not in (ENV, "PYTORCH_NVML_BASED_CUDA_CHECK")}
    try:
        done = subprocess.run([sys.executable, "-c", CHECK], env=env, capture_output=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def decide_for_children() -> bool:
    """Ask once, and tell every process started from here (``ASSIGNMENT_CUDA``).

    Called by a process that forks (the grader's), which must never start CUDA itself, and
    ``torch.cuda.is_available()`` starts it (without ``PYTORCH_NVML_BASED_CUDA_CHECK``, and with
    it whenever NVML fails). A torch built without CUDA is answered here; any other, by a fresh
    process."""
    usable = _told()
    if usable is None:
        import torch

        usable = torch.backends.cuda.is_built() and check_in_fresh_process()
    os.environ[ENV] = "1" if usable else "0"
    return usable
