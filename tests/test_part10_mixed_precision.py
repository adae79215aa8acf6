"""Part 10 — mixed precision (assignment/mixed_precision.py).

Each step test runs ONE ``autocast_train_step`` on the harness's own model (the
lecture's Cruncher: ``x @ weight`` layers, output (batch,)), optimizer and data,
all built from a seed, and the reference runs the same scenario. Hooks report
what happened inside: each matmul's output dtype, each gradient's dtype as it
reached its parameter, the dtype of the loss that backward started from, the
optimizer's step count, the gradients left behind, the parameters and the
scaler's scale afterwards. The "input" line of a failure is that scenario
(see the probe ``mixed_precision.train_step``).

Comparisons: dtypes, step counts, scales and the names of parameters left with
a gradient exactly; the loss within a relative 1e-5 (a loss reduced in bfloat16
or float16 is off by 1e-4 or more); the parameters within a relative 1e-4
(correct ways of writing the step agree to the last bit on the CPU; a gradient
computed in other dtypes, or without the scaler where float16 underflows, moves
them much further).
"""

import functools
import warnings

import pytest
import torch
from hypothesis import example, given

from grader.harness import expect
from grader.harness.expect import BOOL, FLOAT, Anything, Dict, agree, ask, check, close
from grader.harness.oracle import cases
from tests.strategies import part10 as S

SUBJECT = "mixed_precision.autocast_train_step"
PROBE = "mixed_precision.train_step"
LOSS = close(rel=1e-5)
PARAMS = close(rel=1e-4, abs=1e-7)
REPORT = Dict(**{key: Anything() for key in (
    "loss", "matmul_dtypes", "backward_from", "scaled", "grad_dtypes", "param_dtypes",
    "params", "grads_left", "steps", "scale")})


def cpu_float16_autocast() -> bool:
    """Whether this torch runs matmuls in float16 under CPU autocast and has a CPU GradScaler."""
    try:
        torch.amp.GradScaler("cpu")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # an unsupported dtype only warns and disables autocast
            with torch.autocast("cpu", dtype=torch.float16):
                return (torch.ones(1, 1) @ torch.ones(1, 1)).dtype == torch.float16
    except (RuntimeError, ValueError, TypeError):
        return False


# --------------------------------------------------------------------------- helpers
def one_step(impl, oracle, case):
    """What the hooks saw on both sides, and the scenario as a failure message shows it."""
    got, expected, inputs = ask(impl, oracle, PROBE, *case)
    check(got, REPORT, SUBJECT, inputs)
    return got, expected, inputs


same = functools.partial(expect.same, SUBJECT)  # every check here is about autocast_train_step


def matmuls_ran_in_autocast(got, expected, inputs) -> None:
    same(got["matmul_dtypes"], expected["matmul_dtypes"],
         "the dtype of each matmul's output (one per layer call) is not the autocast dtype: "
         "run the forward under torch.autocast(device_type, dtype=dtype)", inputs)


def params_and_grads_stay_fp32(got, expected, inputs) -> None:
    same(got["param_dtypes"], expected["param_dtypes"],
         "parameter dtypes after the step: they must stay float32 (autocast casts copies "
         "inside each op; never convert the model)", inputs)
    same(got["grad_dtypes"], expected["grad_dtypes"],
         "gradient dtypes, each time a gradient reached a parameter: one float32 gradient "
         "per parameter", inputs)


def loss_is_float32(got, expected, inputs) -> None:
    check(got["loss"], FLOAT, SUBJECT, inputs)
    # the loss tensor itself: the one given to scaler.scale, else the one backward started from
    seen = got["scaled"] if got["scaled"] is not None else got["backward_from"]
    wanted = expected["scaled"] if expected["scaled"] is not None else expected["backward_from"]
    same(seen, wanted, "the dtype of the loss tensor backward ran on: reduce the loss in float32 "
         "(F.mse_loss(pred.float(), y)) and call backward once", inputs)
    same(got["loss"], expected["loss"], "wrong loss returned", inputs, LOSS)


def stepped_once_and_cleared(got, expected, inputs) -> None:
    same(got["steps"], expected["steps"],
         "number of optimizer.step() calls (with a scaler: none when the scaled gradients "
         "overflowed)", inputs)
    same(got["grads_left"], expected["grads_left"],
         "parameters still holding a nonzero gradient after the step: call optimizer.zero_grad()",
         inputs)
    same(got["params"], expected["params"],
         "parameters after the step differ from one optimizer step on the autocast gradients",
         inputs, PARAMS)


def scaler_used(got, expected, inputs) -> None:
    same(got["scaled"], expected["scaled"],
         "the losses given to scaler.scale(), by dtype: backward must start from "
         "scaler.scale(loss) on the float32 loss, once", inputs)
    same(got["scale"], expected["scale"],
         "the scaler's scale after the step: scaler.update() halves it after an overflow and "
         "(growth_interval=1 here) doubles it after a clean step", inputs)


# --------------------------------------------------------------------------- tests
@given(dtype=cases("mixed_precision.needs_grad_scaler", S.training_dtypes))
@example(dtype=torch.float16)
@example(dtype=torch.bfloat16)
def test_needs_grad_scaler(impl, oracle, dtype):
    agree(impl, oracle, "mixed_precision.needs_grad_scaler", dtype, returns=BOOL)


@given(case=cases("mixed_precision.bf16_matmuls", S.steps(torch.bfloat16)))
@example(case=(0, 2, 4, 1, "sgd", 0.1, torch.bfloat16, "cpu", None, 0))
def test_autocast_matmuls_in_bf16(impl, oracle, case):
    matmuls_ran_in_autocast(*one_step(impl, oracle, case))


@given(case=cases("mixed_precision.bf16_dtypes", S.steps(torch.bfloat16)))
def test_params_and_grads_stay_fp32(impl, oracle, case):
    params_and_grads_stay_fp32(*one_step(impl, oracle, case))


@given(case=cases("mixed_precision.bf16_loss", S.steps(torch.bfloat16)))
def test_loss_is_float32(impl, oracle, case):
    loss_is_float32(*one_step(impl, oracle, case))


@given(case=cases("mixed_precision.bf16_step", S.steps(torch.bfloat16)))
def test_stepped_once_and_grads_cleared(impl, oracle, case):
    stepped_once_and_cleared(*one_step(impl, oracle, case))


@pytest.mark.skipif(not cpu_float16_autocast(), reason="this torch has no float16 autocast on the CPU")
@given(case=cases("mixed_precision.fp16_scaler", S.steps(torch.float16, scaled=True)))
# float16 gradients of the hidden layers underflow unless scaled (shrink 12)
@example(case=(0, 4, 8, 2, "sgd", 0.1, torch.float16, "cpu", 2.0**16, 12))
# the scaled gradients overflow: the scaler skips the step and halves its scale
@example(case=(0, 4, 8, 2, "sgd", 0.1, torch.float16, "cpu", 2.0**24, 0))
def test_fp16_with_grad_scaler(impl, oracle, case):
    got, expected, inputs = one_step(impl, oracle, case)
    matmuls_ran_in_autocast(got, expected, inputs)
    scaler_used(got, expected, inputs)
    loss_is_float32(got, expected, inputs)
    stepped_once_and_cleared(got, expected, inputs)


@pytest.mark.cuda
@given(case=cases("mixed_precision.cuda_step", S.cuda_steps()))
def test_autocast_cuda(impl, oracle, case):
    """On the GPU: bfloat16 without a scaler, float16 with a GradScaler("cuda")."""
    got, expected, inputs = one_step(impl, oracle, case)
    matmuls_ran_in_autocast(got, expected, inputs)
    params_and_grads_stay_fp32(got, expected, inputs)
    if expected["scale"] is not None:
        scaler_used(got, expected, inputs)
    loss_is_float32(got, expected, inputs)
    stepped_once_and_cleared(got, expected, inputs)
