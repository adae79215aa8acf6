"""The check a GPU pass makes before grading: a clean worker, boxed in as every later one, computes
on the device, or the batch says at once what it met (``grader/isolation/device_check.py``).

Run here on the CPU: the same worker, the same judge, the same reading of its answer; only the
device differs. On a machine without CUDA, asking for it must come back as one readable line.
"""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest
import torch

from grader.isolation import sandbox
from grader.isolation.device_check import problem_in_worker
from grader.isolation.transport import ForkServerHandle

UID = 64_000  # this module's worker ids


@pytest.fixture(scope="module")
def server():
    handle = ForkServerHandle()
    yield handle
    handle.close()


def uid() -> int | None:
    return UID if os.geteuid() == 0 and sandbox.available_mode(True) == sandbox.ROOT else None


def test_a_worker_that_can_compute_on_the_device_is_no_problem(server):
    assert problem_in_worker(server, uid(), sandbox.Limits(), device="cpu") is None


@pytest.mark.skipif(torch.cuda.is_available(), reason="a GPU is here")
def test_a_worker_that_cannot_use_cuda_says_why_in_one_line(server):
    problem = problem_in_worker(server, uid(), sandbox.Limits(), device="cuda")
    assert problem and "\n" not in problem and "Traceback" not in problem, problem
    assert "CUDA" in problem or "cuda" in problem, problem


def test_a_batch_says_at_once_and_in_its_notes_when_the_worker_cannot(monkeypatch, capsys):
    from grader import batch as batch_mod
    from grader.isolation import device_check
    from grader.session import Options

    monkeypatch.setattr(device_check, "problem_in_worker", lambda *a, **k: "AcceleratorError: CUDA error: 304")
    graded = batch_mod.Batch(Options(), record_now=False)
    graded.check_device(None)
    assert graded.notes == ["WARNING: a sandboxed worker cannot use the GPU (AcceleratorError: CUDA error: 304): "
                            "every cuda test will fail with a harness error (README, 'GPU')"]
    assert "cannot use the GPU" in capsys.readouterr().err and "device check seconds" in graded.phases
    graded.__exit__(None, None, None)


def test_the_fork_server_warms_up_without_starting_cuda(monkeypatch):
    """Every worker is forked from the fork server, and no process forked after CUDA started can use it.
    On an H200 every worker's CUDA failed with 'initialization error': the warm-up's first backward had
    started it (the autograd engine counts every device type's devices), and an optimizer's step asks
    ``torch.accelerator`` for the current stream. Where a CUDA driver is, the warm-up does neither."""
    from grader.isolation import forkserver

    started = []
    backward, current_accelerator = torch.autograd.backward, torch.accelerator.current_accelerator
    monkeypatch.setattr(forkserver, "cuda_driver_present", lambda: True)
    monkeypatch.setattr(torch.autograd, "backward", lambda *a, **k: started.append("backward") or backward(*a, **k))
    monkeypatch.setattr(torch.accelerator, "current_accelerator",
                        lambda *a, **k: started.append("accelerator") or current_accelerator(*a, **k))
    forkserver._exercise(torch)
    assert started == [], f"the fork server's warm-up ran what starts CUDA: {started}"


def test_the_fork_server_says_whether_a_child_of_it_can_start_cuda(server):
    """Its ready line says so (on a GPU machine, a child of it tried cuInit; here, there is no driver)."""
    server.wait_ready()
    assert server.cuda_started is False


def test_a_batch_names_the_fork_server_when_it_started_cuda(monkeypatch, capsys):
    from grader import batch as batch_mod
    from grader.isolation import device_check
    from grader.session import Options

    monkeypatch.setattr(device_check, "problem_in_worker", lambda *a, **k: "AcceleratorError: CUDA error: 3")
    graded = batch_mod.Batch(Options(), record_now=False)
    graded.server = SimpleNamespace(cuda_started=True)  # what its ready line said
    graded.check_device(None)
    assert "the fork server started CUDA while warming up" in graded.notes[0], graded.notes
    capsys.readouterr()
    graded.server = None
    graded.__exit__(None, None, None)


@pytest.mark.parametrize("answer, expected", [(0, True), (3, False), (None, None)],
                         ids=["a child starts it", "initialised in the parent", "no driver"])
def test_whether_a_child_can_start_cuda_is_its_cuinit(monkeypatch, answer, expected):
    """One forked child calls the driver's cuInit and exits with its code: 0 is a child that can start CUDA,
    3 (CUDA_ERROR_NOT_INITIALIZED: what a child of a process that started it gets) one that cannot, and
    without a driver to load there is nothing to ask. Here a stand-in driver answers."""
    import ctypes

    from grader.isolation import forkserver

    class Driver:
        def __init__(self, name):
            if answer is None:
                raise OSError(f"{name}: cannot open shared object file")

        def cuInit(self, flags):  # noqa: N802 - the driver's name
            return answer

    monkeypatch.setattr(ctypes, "CDLL", Driver)
    assert forkserver.cuda_starts_in_a_child() is expected
    assert forkserver.cuda_driver_present() is (answer is not None)
