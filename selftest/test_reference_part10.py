"""Staff check: the Part 10 reference agrees with torch itself, and the probe is fair.

torch is the oracle of the oracle: autocast only casts copies of each matmul's
inputs, so the same step written with explicit ``.to(dtype)`` casts (and, for
float16, with the loss scaling done by hand) must give the reference's loss,
parameters, step count and scale. The probe must also accept every correct way
of writing the step, and the scenarios must really show what the lecture says
(float16 gradients underflow without a scaler; an overflow skips the step).
"""

import math
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from torch import nn

from grader.harness import wire
from grader.harness.ask import Answers
from grader.harness.impl import Implementation
from grader.harness.probes.part10 import DeepLinear, _optimizer, train_step
from reference import mixed_precision as R
from tests import test_part10_mixed_precision as T
from tests.strategies import part10 as S

REFERENCE = Implementation("reference", Path(__file__).resolve().parent.parent)


class Only:
    """An implementation whose autocast_train_step is the given function."""

    def __init__(self, fn) -> None:
        self.fn = fn

    def function(self, name):
        assert name == "mixed_precision.autocast_train_step"
        return self.fn


def report(fn, case):
    """The probe's report for ``fn``, as a test sees it (through the wire)."""
    return train_step.decode(wire.roundtrip(train_step.fn(Only(fn), *case)))


def by_hand(case):
    """The scenario's step without autocast or GradScaler: explicit casts, scaling by hand.

    Returns (loss, grads before unscaling, parameters after, steps, scale after).
    """
    seed, batch, dim, num_layers, optimizer, lr, dtype, _, init_scale, shrink, *_ = case  # by_default or not
    generator = torch.Generator().manual_seed(seed)
    model = DeepLinear(dim, num_layers, shrink, generator)
    x = torch.randn(batch, dim, generator=generator)
    y = torch.randn(batch, generator=generator) * 2.0**-shrink
    opt = _optimizer(optimizer, model.parameters(), lr)
    h = x
    for layer in [*model.layers, model.final]:
        h = h.to(dtype) @ layer.weight.to(dtype)  # what autocast does to a matmul
    loss = F.mse_loss(h.squeeze(-1).float(), y)
    scale = 1.0 if init_scale is None else init_scale
    (loss * scale).backward()
    grads = {name: p.grad.clone() for name, p in model.named_parameters()}
    finite = all(bool(g.isfinite().all()) for g in grads.values())
    steps = 0
    if finite:
        for p in model.parameters():
            p.grad.mul_(1.0 / scale)  # exact: the scales are powers of two
        opt.step()
        steps = 1
    if init_scale is not None:
        scale = scale * 2.0 if finite else scale * 0.5  # growth_interval=1, default factors
    params = {name: p.detach().clone() for name, p in model.named_parameters()}
    return loss.item(), grads, params, steps, (None if init_scale is None else scale)


def assert_matches_by_hand(case):
    got = report(R.autocast_train_step, case)
    loss, grads, params, steps, scale = by_hand(case)
    dtype = case[6]
    assert got.loss == loss
    assert got.steps == steps and got.scale == scale
    assert got.grads_left == []
    for name, value in params.items():
        assert torch.equal(got.params[name], value), name
        assert [g.dtype for g in got.grads[name]] == [torch.float32]
        assert torch.equal(got.grads[name][0], grads[name], ) or torch.allclose(
            got.grads[name][0], grads[name], rtol=0, atol=0, equal_nan=True), name  # an overflow: inf and nan
    assert [a.dtype for a in got.activations] == [dtype] * (case[3] + 1)
    assert [t.dtype for t in got.backward_from] == [torch.float32]


@given(S.steps(torch.bfloat16))
def test_bf16_step_is_explicit_casts(case):
    assert_matches_by_hand(case)


@given(S.steps(torch.float16, scaled=True))
def test_fp16_step_is_scaling_by_hand(case):
    assert_matches_by_hand(case)


@given(S.training_dtypes)
def test_needs_grad_scaler_is_the_range_question(dtype):
    narrower = torch.finfo(dtype).tiny > torch.finfo(torch.float32).tiny
    assert R.needs_grad_scaler(dtype) is narrower


# --------------------------------------------------------------------------- fairness
def loss_inside_autocast(model, optimizer, x, y, dtype=torch.bfloat16, device_type="cpu", scaler=None):
    optimizer.zero_grad()
    with torch.autocast(device_type, dtype=dtype):
        loss = F.mse_loss(model(x), y)  # autocast runs mse_loss in float32 itself
    if scaler is None:
        torch.autograd.backward(loss)
        optimizer.step()
    else:
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    optimizer.zero_grad(set_to_none=False)
    return float(loss.detach())


def mean_by_hand(model, optimizer, x, y, dtype=torch.bfloat16, device_type="cpu", scaler=None):
    with torch.autocast(device_type, dtype=dtype):
        pred = model(x)
    loss = ((pred.float() - y) ** 2).mean()
    (loss if scaler is None else scaler.scale(loss)).backward()
    if scaler is None:
        optimizer.step()
    else:
        scaler.step(optimizer)
        scaler.update()
    model.zero_grad()
    return loss.item()


@pytest.mark.parametrize("variant", [loss_inside_autocast, mean_by_hand])
@settings(max_examples=30)
@given(case=S.steps(torch.bfloat16) | S.steps(torch.float16, scaled=True))
def test_correct_variants_pass_every_check(variant, case):
    step = Answers(T.train_step.subject, "", report(variant, case), report(R.autocast_train_step, case))
    T.matmuls_ran_in_autocast(step)
    T.params_and_grads_stay_fp32(step)
    T.loss_is_float32(step)
    T.stepped_once_and_cleared(step)
    if case[8] is not None:
        T.scaler_used(step)


# --------------------------------------------------------------------------- the lecture's facts
UNDERFLOW = (0, 4, 8, 2, "sgd", 0.1, torch.float16, "cpu", 2.0**16, 12)
OVERFLOW = (0, 4, 8, 2, "sgd", 0.1, torch.float16, "cpu", 2.0**24, 0)


def test_float16_gradients_underflow_without_the_scaler():
    """The fp16 test's first example: unscaled, the first layer's gradients flush to zero."""
    unscaled = by_hand(UNDERFLOW[:8] + (None, UNDERFLOW[9]))[1]["layers.0.weight"]
    scaled = by_hand(UNDERFLOW)[1]["layers.0.weight"]
    bf16 = by_hand(UNDERFLOW[:6] + (torch.bfloat16, "cpu", None, UNDERFLOW[9]))[1]["layers.0.weight"]
    assert (unscaled == 0).float().mean() > 0.5
    assert bool((scaled != 0).all()) and bool((bf16 != 0).all())


def test_overflow_skips_the_step_and_halves_the_scale():
    got = report(R.autocast_train_step, OVERFLOW)
    assert got.steps == 0 and got.scale == 2.0**23


def test_fp16_scenarios_mix_clean_and_skipped_steps():
    outcomes = {
        report(R.autocast_train_step, (seed, 4, 8, 2, "sgd", 0.1, torch.float16, "cpu", scale, shrink)).steps
        for seed in range(3) for scale in S.INIT_SCALES for shrink in S.SHRINKS
    }
    assert outcomes == {0, 1}


# --------------------------------------------------------------------------- docstrings
def worked_example():
    model = nn.Sequential(nn.Linear(2, 1, bias=False), nn.Flatten(0))
    nn.init.ones_(model[0].weight)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    x, y = torch.tensor([[1.0, 2**-9]]), torch.tensor([0.0])
    return model, optimizer, x, y


def test_docstring_examples():
    assert R.needs_grad_scaler(torch.float16) is True
    assert R.needs_grad_scaler(torch.bfloat16) is False and R.needs_grad_scaler(torch.float32) is False
    assert torch.tensor([1e-8], dtype=torch.float16).item() == 0.0
    assert torch.tensor([1e-8], dtype=torch.bfloat16).item() != 0.0
    assert torch.finfo(torch.float16).smallest_normal * 2.0**-10 == 2.0**-24  # float16's smallest value

    model, optimizer, x, y = worked_example()
    assert R.autocast_train_step(model, optimizer, x, y) == 1.0
    assert (1 + 2**-9) ** 2 == pytest.approx(1.0039100646972656, rel=1e-7)
    assert model[0].weight.dtype == torch.float32
    assert model[0].weight.tolist() == [[0.0, 0.998046875]] and 0.998046875 == 1 - 2**-9
    assert model[0].weight.grad is None

    model, optimizer, x, y = worked_example()
    scaler = torch.amp.GradScaler("cpu", init_scale=1024.0)
    assert R.autocast_train_step(model, optimizer, x, y, torch.float16, "cpu", scaler) == 1.0039100646972656

    model, optimizer, x, y = worked_example()
    scaler = torch.amp.GradScaler("cpu")
    assert scaler.get_scale() == 2.0**16
    assert 2 * (1 + 2**-9) * 2**16 > torch.finfo(torch.float16).max == 65504
    assert math.isclose(2 * (1 + 2**-9) * 2**16, 131328, rel_tol=1e-9)
    assert R.autocast_train_step(model, optimizer, x, y, torch.float16, "cpu", scaler) == 1.0039100646972656
    assert model[0].weight.tolist() == [[1.0, 1.0]]
    assert scaler.get_scale() == 32768.0


@pytest.mark.parametrize("call", [
    lambda: R.needs_grad_scaler(torch.int32),
    lambda: R.needs_grad_scaler(torch.float8_e4m3fn),
    lambda: R.autocast_train_step(*worked_example(), torch.float32),
    lambda: R.autocast_train_step(*worked_example(), torch.int8),
], ids=["int dtype", "float8", "float32 autocast", "int autocast"])
def test_bad_arguments_raise_value_error(call):
    with pytest.raises(ValueError, match=r"\w"):
        call()
