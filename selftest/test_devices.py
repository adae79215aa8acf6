"""The grader decides once whether CUDA is usable, without starting CUDA in a process that forks.

A process that has started the CUDA runtime cannot fork children that use it: the grader's
batch process forks every grading process, so the question is answered by a fresh interpreter
(or, for a torch built without CUDA, by the build itself) and passed down in ``ASSIGNMENT_CUDA``.
"""

from __future__ import annotations

import os

import pytest
import torch

from grader.harness import devices


@pytest.fixture
def untold(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """No answer in the environment; asking this process's CUDA fails the test; fresh processes are logged."""
    # set, then removed: undone after the test, so what decide_for_children writes does not outlive it
    for name in (devices.ENV, devices.PID_NAMESPACE_ENV, "PYTORCH_NVML_BASED_CUDA_CHECK"):
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)

    def started_cuda_here(*args, **kwargs):
        raise AssertionError("the grader's own process asked the CUDA runtime")

    monkeypatch.setattr(torch.cuda, "is_available", started_cuda_here)
    monkeypatch.setattr(torch.cuda, "device_count", started_cuda_here)
    monkeypatch.setattr(torch._C, "_cuda_getDeviceCount", started_cuda_here, raising=False)
    asked: list[str] = []
    monkeypatch.setattr(devices, "check_in_fresh_process", lambda: asked.append("fresh") or (True, True))
    return asked


def test_a_torch_without_cuda_is_answered_without_asking_anyone(untold, monkeypatch):
    monkeypatch.setattr(torch.backends.cuda, "is_built", lambda: False)
    assert devices.decide_for_children() is False
    assert untold == []
    assert devices.os.environ[devices.ENV] == "0"


def test_a_torch_with_cuda_is_asked_of_a_fresh_process_only(untold, monkeypatch):
    monkeypatch.setattr(torch.backends.cuda, "is_built", lambda: True)
    assert devices.decide_for_children() is True
    assert untold == ["fresh"]
    assert devices.os.environ[devices.ENV] == "1"


@pytest.mark.parametrize("told", ["0", "1"])
def test_an_answer_already_given_is_kept(untold, monkeypatch, told):
    monkeypatch.setenv(devices.ENV, told)
    monkeypatch.setattr(torch.backends.cuda, "is_built", lambda: True)
    assert devices.decide_for_children() is (told == "1")
    assert untold == []


USE = '''def use():
    torch.zeros(1, device="cuda").add_(1)
    torch.cuda.synchronize()
'''


@pytest.mark.parametrize("refused", [False, True])
def test_the_fresh_process_tries_the_device_in_a_new_pid_namespace_too(monkeypatch, refused):
    """Where CUDA fails in a new PID namespace (as on one H200 VM: "Error 304"), the fresh process says so
    and ``decide_for_children`` passes it down, so that root-graded workers keep the host's namespace."""
    from grader.isolation import sandbox

    if sandbox.available_mode(os.geteuid() == 0) == sandbox.NONE:
        pytest.skip("this kernel gives no namespaces")
    assert USE in devices.CHECK
    fake = "def use():\n    if os.getpid() == 1:\n        raise OSError(304)\n" if refused else "def use():\n    pass\n"
    monkeypatch.setattr(devices, "CHECK", devices.CHECK.replace(USE, fake))
    assert devices.check_in_fresh_process() == (True, not refused)
    for name in (devices.ENV, devices.PID_NAMESPACE_ENV):
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    monkeypatch.setattr(torch.backends.cuda, "is_built", lambda: True)
    assert devices.decide_for_children() is True
    assert devices.cuda_refuses_pid_namespace() is refused


def test_without_a_device_the_fresh_process_says_no():
    if torch.cuda.is_available():
        pytest.skip("a GPU is here")
    assert devices.check_in_fresh_process()[0] is False
