"""The grader decides once whether CUDA is usable, without starting CUDA in a process that forks.

A process that has started the CUDA runtime cannot fork children that use it: the grader's
batch process forks every grading process, so the question is answered by a fresh interpreter
(or, for a torch built without CUDA, by the build itself) and passed down in ``ASSIGNMENT_CUDA``.
"""

from __future__ import annotations

import pytest
import torch

from grader.harness import devices


@pytest.fixture
def untold(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """No answer in the environment; asking this process's CUDA fails the test; fresh processes are logged."""
    monkeypatch.delenv(devices.ENV, raising=False)
    monkeypatch.delenv("PYTORCH_NVML_BASED_CUDA_CHECK", raising=False)

    def started_cuda_here(*args, **kwargs):
        raise AssertionError("the grader's own process asked the CUDA runtime")

    monkeypatch.setattr(torch.cuda, "is_available", started_cuda_here)
    monkeypatch.setattr(torch.cuda, "device_count", started_cuda_here)
    monkeypatch.setattr(torch._C, "_cuda_getDeviceCount", started_cuda_here, raising=False)
    asked: list[str] = []
    monkeypatch.setattr(devices, "check_in_fresh_process", lambda: asked.append("fresh") or True)
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
