"""Part 8, hidden — gradients flow through Linear and Cruncher (assignment/model.py), and its size is counted.

The public tests run the model's forward under ``torch.no_grad()`` only: a forward that
computes the right numbers outside autograd's sight (``x @ self.weight.data``, a
``detach()``, a forward under ``no_grad``) passes them all, and then never trains. Here
the probe ``cruncher_backward`` loads the same seeded weights into both sides, runs the
model on an x that requires grad, and sends a seeded gradient back from the output.

Compared with the reference: the output as in the public forward test (within 1e-5);
then every parameter's gradient and the input's within a relative 1e-4 (plus 1e-5):
each is a chain of at most fourteen float32 matmuls of values about 1 in size, a few ulps
apart between correct ways of writing them, where a missing gradient is None and a
wrong one is off by about its own size. And num_parameters of the same Cruncher, deeper than the
public tests' (an exact integer).
"""

import torch
from hypothesis import settings
from hypothesis import strategies as st

from grader.harness.ask import ask
from grader.harness.cases import example, given
from grader.harness.probes.part08 import cruncher_backward, num_parameters_of_cruncher
from grader.harness.schema import INT, Tensor
from tests.strategies import part08 as S
from tests.test_part08_model import no_problem

GRADIENTS = dict(rel=1e-4, abs=1e-5)

# (dim, num_layers, batch, seed), each past the public forward cases' (dim 16, 4 layers, batch 8), which a
# student can read: a forward that runs only the first four (or eight) layers is seen here
WIDER = st.tuples(st.integers(1, 32), st.integers(0, 12), st.integers(1, 16), S.seeds)


@settings(max_examples=20)  # each example is one small model's forward and backward
@given(case=WIDER)
@example(case=(64, 2, 4, 0))
@example(case=(3, 0, 1, 7))  # the final layer alone, one example
@example(case=(24, 11, 12, 5))  # past every public bound at once
def test_gradients_reach_every_weight(impl, oracle, case):
    """Cruncher(dim, num_layers) with the spec's weights on x (batch, dim): backward reaches each weight and x."""
    dim, num_layers, batch, _ = case
    answers = no_problem(ask(impl, oracle, cruncher_backward, *case))
    output = answers.where("output")
    output.check(Tensor(torch.float32, (batch,)))
    output.within(rel=1e-5, abs=1e-5, problem="wrong forward output")
    missing = sorted(name for name, grad in answers.got.grads.items() if grad is None)
    if missing:
        answers.fail(f"after backward from the output, no gradient reached {missing}: the forward must compute "
                     "x @ self.weight with the Parameter itself (not .data, not detached, not under no_grad), "
                     "and the Parameter must require grad (nn.Parameter's default; requires_grad=False freezes it)")
    answers.where("grads").within(**GRADIENTS, problem="the weights' gradients after backward from the output differ")
    answers.where("input_grad").within(**GRADIENTS, problem="the input's gradient after backward from the output "
                                       "differs")
    ask(impl, oracle, num_parameters_of_cruncher, dim, num_layers, returns=INT).about("model.Cruncher").same(
        f"wrong num_parameters for a Cruncher{(dim, num_layers)}, deeper than the public tests' (up to 4 layers): "
        "num_layers Linear(dim, dim) layers, each its own, then a Linear(dim, 1), none with a bias")
