"""Part 10, hidden — float16 steps past the public tests (assignment/mixed_precision.py).

The public steps run bfloat16 without a scaler (and sometimes with one), float16 with
one, and one float16 step without. The spec allows that fourth combination whatever the
dtype: without a scaler the step is ``loss.backward()`` then ``optimizer.step()``. Here
float16 steps get ``scaler=None`` on many scenarios (batches and models past the public
ones' sizes), and the hidden layers' gradients of the shrunk models (shrink 12) flush to
zero in float16, exactly as the reference's do: a loss scaled by hand (which no scaler
asked for) brings them back.

Compared as in the public tests (see tests/test_part10_mixed_precision.py): the matmuls'
outputs exactly, the parameters and gradients float32, the loss float32 within 1e-5,
one optimizer step and the gradients cleared.

And each scenario is also run on plain torch objects through one GradScaler for more
steps than the public test's three (4 to 16): the scale after each step exactly the
reference's, the losses and the parameters as the public tests compare them. A step
that updates its scaler on a run's first few steps only shows there.
"""

import pytest
import torch
from hypothesis import settings
from hypothesis import strategies as st

from grader.harness.ask import ask
from grader.harness.cases import example, given
from grader.harness.probes.part10 import train_step
from tests.strategies import part10 as S
from tests.test_part10_mixed_precision import (
    cpu_float16_autocast, loss_is_float32, matmuls_ran_in_autocast, params_and_grads_stay_fp32,
    plain_steps_agree, stepped_once_and_cleared,
)


@st.composite
def wider_steps(draw):
    """float16 steps without a scaler on models and batches past the public strategies' (batch and dim 16,
    3 hidden layers), which a student can read: a step that trains only inside them is seen here."""
    case = list(draw(S.steps(torch.float16)))
    case[1:4] = draw(st.integers(1, 40)), draw(st.integers(1, 40)), draw(st.integers(0, 6))
    return tuple(case)


SCALER_STEPS = st.integers(4, 16)  # steps through one GradScaler: past the public test's 3


@pytest.mark.skipif(not cpu_float16_autocast(), reason="this torch has no float16 autocast on the CPU")
@settings(max_examples=15)  # one step each: a step's bugs show on almost any scenario
@given(case=wider_steps(), count=SCALER_STEPS)
@example(case=(0, 4, 8, 2, "sgd", 0.1, torch.float16, "cpu", None, 0), count=16)
@example(case=(3, 24, 20, 5, "sgd", 0.1, torch.float16, "cpu", None, 0), count=9)  # past every public bound at once
# the hidden layers' float16 gradients underflow, and with no scaler they stay zero
@example(case=(0, 4, 8, 2, "sgd", 0.1, torch.float16, "cpu", None, 12), count=4)
def test_fp16_steps_past_the_public_tests(impl, oracle, case, count):
    step = ask(impl, oracle, train_step, *case)
    matmuls_ran_in_autocast(step)
    params_and_grads_stay_fp32(step)
    loss_is_float32(step)
    stepped_once_and_cleared(step)
    # the same scenario on plain objects, float16 given a GradScaler(2**16), `count` steps: the scale after each,
    # the losses, the parameters, the gradients left and the batch
    plain_steps_agree(impl, oracle, (*case[:8], 2.0**16, case[9]), count, cleared=True)
