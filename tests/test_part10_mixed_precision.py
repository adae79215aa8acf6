"""Part 10 — mixed precision (assignment/mixed_precision.py).

Each step test runs ONE ``autocast_train_step`` on the harness's own model (the
lecture's Cruncher: ``x @ weight`` layers, output (batch,)), optimizer and data,
all built from a seed, and the reference runs the same scenario. Hooks copy out
what happened inside, values and dtypes: each matmul's output, each gradient as
it reached its parameter, the loss tensor that backward started from; then the
parameters, the gradients left, the scaler's scale and the caller's x and y. The
"input" line of a failure is that scenario (see the probe ``train_step``). And each
test runs its scenario again on plain torch objects, as a user would call the step
(an nn.Sequential of nn.Linear layers, a torch.amp.GradScaler, nothing of the
harness's on them: the probe ``scaler_steps``), judged by what they show from
outside: the losses returned, the scale after each step and the parameters after
the steps. A step must do the same on any model and scaler, not only on the
harness's own.

Comparisons: dtypes, scales and the names of parameters left with a gradient
exactly; each matmul's output exactly (the same inputs under autocast give the
same bits); the loss within a relative 1e-5 (a loss reduced in bfloat16 or float16
is off by 1e-4 or more); the gradients only roughly (within half their size, plus
5% of the largest: they must be this step's gradients, and their dtype is what is
tested, not how they were rounded); the parameters within a relative 1e-4
(correct ways of writing the step agree to the last bit on the CPU; a gradient
computed in other dtypes, or without the scaler where float16 underflows, moves
them much further); the caller's x and y after the step exactly, dtypes too (the
step computes on copies).
"""

import math
import warnings

import pytest
import torch
from hypothesis import settings

from grader.harness import spec
from grader.harness.ask import Answers, ask
from grader.harness.cases import example, given
from grader.harness.faults import StudentRaised
from grader.harness.probes.part10 import scaler_steps, train_step
from grader.harness.schema import FLOAT, FLOAT_OR_INF
from tests.strategies import part10 as S

# (no digest: every dtype asked is one of the docstring's own three examples)
needs_grad_scaler = spec.function("mixed_precision.needs_grad_scaler")
STEPS = settings(max_examples=15)  # one step each: a step's bugs show on almost any scenario
LOSS = dict(rel=1e-5)
PARAMS = dict(rel=1e-4, abs=1e-7)
GRADS = 0.5  # relative; with 5% of the largest gradient as slack: right or wrong, not how rounded


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


def dtypes(value):
    """The dtypes of the tensors in a list or a dict of lists, in the same layout."""
    if isinstance(value, torch.Tensor):
        return value.dtype
    if type(value) is dict:
        return {k: dtypes(v) for k, v in value.items()}
    return [dtypes(v) for v in value]


# --------------------------------------------------------------------------- what each test holds
def matmuls_ran_in_autocast(step: Answers) -> None:
    activations = step.where("activations")
    activations.map(dtypes).same("the dtype of each matmul's output (one per layer call) differs from the "
                                 "reference's: run the forward under torch.autocast(device_type, dtype=dtype), for "
                                 "the device_type given (a CUDA autocast leaves CPU tensors' ops in float32)")
    activations.same("each matmul's output differs from the reference's: run the forward once, under "
                     "torch.autocast(device_type, dtype=dtype), on the model and x as given")
    forward_under_autocast(step)


def forward_under_autocast(step: Answers) -> None:
    """What the other checks of a step rest on: its forward ran under torch.autocast, not a cast by hand."""
    step.where("autocast_in_forward").same("whether an autocast of device_type to dtype was on as each matmul ran: "
                                           "run the forward under torch.autocast(device_type, dtype=dtype) (a cast "
                                           "by hand gives its dtypes, but it is not autocast)")


def params_stay_fp32(step: Answers) -> None:
    step.where("params").map(dtypes).same("parameter dtypes after the step: they must stay float32 (autocast "
                                          "casts copies inside each op; never convert the model)")


def grads_stay_fp32(step: Answers) -> None:
    step.where("grads").map(dtypes).same("gradient dtypes, each time a gradient reached a parameter: one float32 "
                                         "gradient per parameter (autocast casts copies inside each op; never "
                                         "convert the model)")


def params_and_grads_stay_fp32(step: Answers) -> None:
    params_stay_fp32(step)
    grads_stay_fp32(step)
    grads_of_the_loss(step, "the gradients that reached the parameters are not those of this step's loss")
    step.where("autocast_in_backward").same("whether an autocast was on as each gradient reached a parameter: "
                                            "backward ran inside the autocast block. Only the forward and the loss "
                                            "go under torch.autocast; call backward after the with block")


def grads_of_the_loss(step: Answers, problem: str) -> None:
    """The gradients, each time one reached a parameter, within GRADS of the reference's (scaled, with a scaler)."""
    finite = [g[g.isfinite()] for gs in (step.expected.grads or {}).values() for g in gs]
    largest = max([g.abs().max().item() for g in finite if g.numel()] + [0.0])
    step.where("grads").within(rel=GRADS, abs=0.05 * largest, problem=problem)


def overflowed(step: Answers) -> bool:
    """Whether the reference's loss is inf: a float16 forward that overflowed (``shrink`` -16)."""
    return type(step.expected.loss) is float and math.isinf(step.expected.loss)


def loss_is_float32(step: Answers) -> None:
    step.where("loss").check(FLOAT_OR_INF if overflowed(step) else FLOAT)
    # the loss tensor itself: the one given to scaler.scale, else the one backward started from
    roots = step.where("scaled" if step.expected.scaled is not None else "backward_from")
    roots.map(dtypes).same("the dtype of the loss tensor backward ran on: reduce the loss in float32 "
                           "(F.mse_loss(pred.float(), y)) and call backward once")
    roots.within(**LOSS, problem="the loss tensor backward ran on differs from the reference's for this step (the "
                 "forward under torch.autocast in `dtype`, the loss F.mse_loss(pred.float(), y) in float32)")
    step.where("loss").within(**LOSS, problem="wrong loss returned")


def the_step_was_taken(step: Answers, what: str) -> None:
    """What the step must do at all: the parameters after it are one optimizer step's on this step's gradients.
    A property of the step (its matmuls' dtypes, its float32 parameters and loss) counts only for a step that
    updates the model: one that never steps holds each of them trivially."""
    if step.got.refused is None and step.expected.refused is None:
        params_stay_fp32(step)  # (a model converted: said as that, before its values are compared)
        step.where("params").within(**PARAMS, problem=f"parameters after the step differ from one optimizer step on "
                                    f"the autocast gradients ({what}: a property of a step counts only for a step "
                                    "that updates the model as this step's loss asks; call optimizer.step(), or "
                                    "scaler.step(optimizer) with a scaler, once, after backward on "
                                    "F.mse_loss(pred.float(), y): a loss of other values, say of targets rounded to "
                                    "the autocast dtype, steps on other gradients, as test_loss_is_float32 shows)")


def stepped_once_and_cleared(step: Answers) -> None:
    # the optimizer given is the one that steps, even where the parameters come out right (a copy of it
    # stepped instead leaves the caller's without its moments and step count)
    step.where("steps").same("number of optimizer.step() calls on the optimizer given (with a scaler: none "
                             "when the scaled gradients overflowed, in any parameter: scaler.step(optimizer) "
                             "checks them all)")
    params_stay_fp32(step)  # (a model converted: said as that, before its values are compared)
    params = step.where("params")
    params.within(**PARAMS, problem="parameters after the step differ from one optimizer step on the autocast "
                  "gradients")
    step.where("grads_left").same("parameters still holding a nonzero gradient after the step: this step's "
                                  "gradients were left on the model. Call optimizer.zero_grad() after the "
                                  "optimizer's step (a zero_grad before the forward clears only the last step's)")
    batch = step.where("batch_after")
    batch.map(dtypes).same("the dtypes of the caller's x and y after the step (x, then y): the step changed the "
                           "batch it was given. Autocast casts copies inside each op; cast nothing in place "
                           "(x.data = ..., x.copy_(...)): the caller may reuse its batch")
    batch.same("the values of the caller's x and y after the step (x, then y): the step changed the batch it "
               "was given in place; compute on copies")


def scaler_used(step: Answers) -> None:
    step.where("scaled").map(dtypes).same("the losses given to scaler.scale(), by dtype: backward must start "
                                          "from scaler.scale(loss) on the float32 loss, once" + (
                                              " (this loss is inf, a float16 forward that overflowed: the scaler "
                                              "is still given it, and its step and update skip the step and halve "
                                              "the scale)" if overflowed(step) else ""))
    # scaled, as they reach the parameters: a scale() whose result is thrown away leaves them unscaled (a model
    # converted to the autocast dtype makes gradients of that dtype: said as that first)
    grads_stay_fp32(step)
    grads_of_the_loss(step, "the gradients that reached the parameters are not those of the scaled loss: "
                            "backward must start from scaler.scale(loss), and the scaler unscales them in step")
    step.where("scale").same("the scaler's scale after the step: scaler.update() halves it after an overflow and "
                             "(growth_interval=1 here) doubles it after a clean step")
    # the docstring's step 2 holds with a scaler too: a step that scales inside the block is wrong in that branch
    step.where("autocast_in_backward").same("whether an autocast was on as each gradient reached a parameter: "
                                            "the scaled backward ran inside the autocast block. Only the forward "
                                            "and the loss go under torch.autocast; call scaler.scale(loss)"
                                            ".backward() after the with block")


# --------------------------------------------------------------------------- tests
@given(dtype=S.training_dtypes)
@example(dtype=torch.float16)
@example(dtype=torch.bfloat16)
@example(dtype=torch.float32)
def test_needs_grad_scaler(impl, oracle, dtype):
    ask(impl, oracle, needs_grad_scaler, dtype).same()
    if dtype == torch.float32:
        check_float64_needs_no_scaler(impl)


def check_float64_needs_no_scaler(impl) -> None:
    """float64: a training format or not, as you decide (False, or ValueError), never one that needs a scaler:
    its range is wider than float32's."""
    try:
        answers = ask(impl, None, needs_grad_scaler, torch.float64)
    except StudentRaised as raised:
        if raised.exc_type == "ValueError":
            return
        raise
    answers.require(answers.got is False, f"returned {answers.got!r} for torch.float64, whose range is wider than "
                    "float32's (its tiny is smaller): no scaler is needed. Return False, or raise ValueError if you "
                    "take float64 for no training format", show_values=False)


@STEPS
@given(case=S.steps(torch.bfloat16))
@example(case=(0, 2, 4, 1, "sgd", 0.1, torch.bfloat16, "cpu", None, 0))
# CPU tensors under a CUDA autocast (on a machine without CUDA, autocast says so and stands aside): no op
# of theirs is cast, so a step that autocasts the CPU whatever device_type it is given shows
@example(case=(0, 2, 4, 1, "sgd", 0.1, torch.bfloat16, "cuda", None, 0, False, "cpu"))
def test_autocast_matmuls_in_bf16(impl, oracle, case):
    step = ask(impl, oracle, train_step, *case)
    if step.got.refused is None:  # (refusing tensors placed apart from device_type is a step's right)
        matmuls_ran_in_autocast(step)
    the_step_was_taken(step, "the matmuls' dtypes")
    plain_steps_agree(impl, oracle, case)


@STEPS
@given(case=S.steps(torch.bfloat16))
def test_params_and_grads_stay_fp32(impl, oracle, case):
    """Parameters and gradients stay float32 while the matmuls run in the low dtype: without autocast
    they would trivially, so the matmuls' output dtypes come first. And the gradients reach the parameters
    after the autocast block (the docstring's step 2): a backward inside it gives the same values on the CPU,
    so the autocast state is read as each gradient arrives."""
    step = ask(impl, oracle, train_step, *case)
    if step.got.refused is None:
        step.where("activations").map(dtypes).same(
            "the dtype of each matmul's output differs from the reference's: parameters that stay float32 count "
            "only while the forward runs under torch.autocast(device_type, dtype=dtype)")
        forward_under_autocast(step)
    params_and_grads_stay_fp32(step)
    the_step_was_taken(step, "float32 parameters and gradients")
    plain_steps_agree(impl, oracle, case)


@STEPS
@given(case=S.steps(torch.bfloat16))
def test_loss_is_float32(impl, oracle, case):
    step = ask(impl, oracle, train_step, *case)
    if step.got.refused is None:  # a float32 loss counts where the forward ran in the low dtype (said first: a
        forward_under_autocast(step)  # forward without autocast has a float32 loss of other values)
    loss_is_float32(step)
    the_step_was_taken(step, "a float32 loss")
    plain_steps_agree(impl, oracle, case)


@STEPS
@given(case=S.bf16_steps_any_scaler())
# bfloat16 needs no scaler, but one is given: it is used (whether to scale follows from `scaler`, not the dtype)
@example(case=(0, 4, 8, 2, "sgd", 0.1, torch.bfloat16, "cpu", 2.0**8, 0))
# and the mirror: float16 with no scaler given steps without one (a scaler of its own would skip this step)
@example(case=(0, 4, 8, 2, "sgd", 0.1, torch.float16, "cpu", None, 0))
# called with the spec's defaults alone: a step on defaults of its own (float16, "cuda") shows in the parameters
@example(case=(0, 4, 8, 2, "sgd", 0.1, torch.bfloat16, "cpu", None, 0, True))
def test_stepped_once_and_grads_cleared(impl, oracle, case):
    if case[6] == torch.float16 and not cpu_float16_autocast():
        return  # this torch has no float16 autocast on the CPU
    step = ask(impl, oracle, train_step, *case)
    if step.expected.scale is not None:
        if case[6] == torch.bfloat16 and step.got.refused is None:  # (the one test of bfloat16 given a scaler)
            step.where("activations").map(dtypes).same(
                "the dtype of each matmul's output differs from the reference's, on a bfloat16 step given a "
                "scaler: the scaler decides whether the loss is scaled, never the dtype: autocast in `dtype` "
                "whatever `scaler` is")
        scaler_used(step)
    stepped_once_and_cleared(step)
    plain_steps_agree(impl, oracle, case, cleared=True)


@pytest.mark.skipif(not cpu_float16_autocast(), reason="this torch has no float16 autocast on the CPU")
@STEPS
@given(case=S.steps(torch.float16, scaled=True))
# float16 gradients of the hidden layers underflow unless scaled (shrink 12)
@example(case=(0, 4, 8, 2, "sgd", 0.1, torch.float16, "cpu", 2.0**16, 12))
# the scaled gradients overflow: the scaler skips the step and halves its scale
@example(case=(0, 4, 8, 2, "sgd", 0.1, torch.float16, "cpu", 2.0**24, 0))
# ... the hidden layers' alone (the final layer and the targets 2**6 larger: their gradients grow with it twice
# over, the final layer's once), and the final layer's alone (2**8 smaller): a step skipped for an overflow in
# any gradient, not in the first or the last parameter's
@example(case=(0, 4, 8, 2, "sgd", 0.1, torch.float16, "cpu", 2.0**4, -6))
@example(case=(0, 4, 8, 2, "sgd", 0.1, torch.float16, "cpu", 2.0**24, 8))
# the forward overflows float16 (the last layer and the targets 2**16 larger): the loss itself is inf, and still
# the scaler is given the step, skips it and halves its scale
@example(case=(0, 4, 8, 2, "sgd", 0.1, torch.float16, "cpu", 2.0**8, -16))
def test_fp16_with_grad_scaler(impl, oracle, case):
    step = ask(impl, oracle, train_step, *case)
    matmuls_ran_in_autocast(step)
    scaler_used(step)
    loss_is_float32(step)
    stepped_once_and_cleared(step)
    plain_steps_agree(impl, oracle, case, 3, cleared=True)


def plain_steps_agree(impl, oracle, case, count: int = 1, *, cleared: bool = False) -> None:
    """The case's scenario on plain torch objects (an nn.Sequential of nn.Linear, a torch.amp.GradScaler, no hook
    or subclass of the harness's: ``scaler_steps``), ``count`` steps: the first step's loss (the forward's alone),
    the gradients left where the test is about a step that clears up after itself (``cleared``), the scale after
    each step exactly (growth_interval=1), every loss returned and the parameters after the steps as the watched
    step's, and (``cleared``) the caller's batch. A step that does the right thing only on the harness's own
    model and scaler shows here; and one that updates the scaler on a run's first step only (or skips update()
    after a clean step) shows on the second."""
    if len(case) > 11 and case[11] is not None:
        return  # tensors placed apart from device_type: a step may refuse them (the watched step shows which)
    steps = ask(impl, oracle, scaler_steps, *case[:10], count)
    scaler = " and a torch.amp.GradScaler(growth_interval=1)" if case[8] else ""
    on = (f"on plain objects ({count} step{'s' if count != 1 else ''} on one batch, of an nn.Sequential of "
          f"bias-free nn.Linear layers, its optimizer{scaler})")
    losses = steps.where("losses")
    for i, (got, expected) in enumerate(zip(steps.got.losses, steps.expected.losses)):
        # a NaN where the reference's is a number is a wrong value, compared below, not a wrong type (and where
        # the reference's is NaN too, a run that diverged, the same)
        if not (type(got) is float and math.isnan(got)) and not math.isnan(expected):
            losses.where(i).check(FLOAT_OR_INF if math.isinf(expected) else FLOAT)
    forward = ("the forward under torch.autocast(device_type, dtype=dtype) and F.mse_loss(pred.float(), y) in "
               "float32, whatever model it is given")
    # the first step's loss is the forward's alone (said first); the later ones follow the steps before them
    losses.where(0).within(**LOSS, problem=f"the loss returned by the first step {on}: {forward}")
    if cleared:  # (gradients left to pile up overflow a scaler's next step: said as that, before the scales)
        steps.where("grads_left").same(f"parameters still holding a nonzero gradient after the steps {on}: call "
                                       "optimizer.zero_grad() after the optimizer's step, with a scaler too")
    if steps.expected.scales is not None:
        steps.where("scales").same(f"the scaler's scale after each step {on}: every step must end with "
                                   "scaler.update() (it doubles the scale after a clean step and halves it after "
                                   "an overflow), whatever step of a run it is and whatever GradScaler it is given, "
                                   "and step through scaler.step(optimizer), which skips a step whose gradients "
                                   "overflowed (optimizer.step() on them leaves inf or NaN in the parameters, and "
                                   "every later step overflows)")
    losses.within(**LOSS, problem=f"the losses returned {on}: the first is the forward's, and each later one "
                  "follows the steps before it (with a scaler, scaler.step(optimizer) skips a step whose gradients "
                  f"overflowed; never optimizer.step() on them): {forward}")
    steps.where("params").map(dtypes).same(f"parameter dtypes after the steps {on}: they must stay float32")
    steps.where("params").within(**PARAMS, problem=f"parameters after the steps {on} differ from the reference's: "
                                 "the same step on any model and scaler (autocast, a float32 loss, with a scaler "
                                 "scaler.scale(loss).backward(), scaler.step(optimizer), scaler.update())")
    if cleared:
        steps.where("batch_after").same(f"the caller's x and y after the steps {on}: compute on copies")


@pytest.mark.cuda
@given(case=S.cuda_steps())
def test_autocast_cuda(impl, oracle, case):
    """On the GPU: bfloat16 without a scaler, float16 with a GradScaler("cuda")."""
    step = ask(impl, oracle, train_step, *case)
    matmuls_ran_in_autocast(step)
    params_and_grads_stay_fp32(step)
    if step.expected.scale is not None:
        scaler_used(step)
    loss_is_float32(step)
    stepped_once_and_cleared(step)
    # and on plain objects, as on the CPU: a GradScaler("cuda") of torch's own, three steps where there is one
    plain_steps_agree(impl, oracle, case, 3 if case[8] is not None else 1, cleared=True)
