"""Part 4, hidden — FLOP counts of whole training runs, beyond 2**53 and 2**64 (assignment/flops.py).

The public sizes keep every count below 2**53. Accounting for a real run does not: one
layer's matmul over 15 trillion training tokens is 2 * 1.5e13 * 8192 * 8192, about 2**71.
Here the tokens (or batch) reach 2**44 and the widths 2**17: a count that went through a
float comes out rounded, and one that went through numpy or an int64 tensor wraps around
past 2**63. The spec asks for exact integers, which Python's ints are at any size:
compared exactly. ``count_matmul_flops`` counts run-sized products too, on the ``meta``
device (shapes without data: nothing is computed), forward and backward.
"""

from hypothesis import strategies as st

from grader.harness import spec
from grader.harness.ask import ask
from grader.harness.cases import example, given
from grader.harness.counts import exactly
from grader.harness.probes.part04 import count_scenario
from grader.harness.schema import INT
from tests.test_part04_flops import counts_with_its_own_mode

matmul_flops = spec.function("flops.matmul_flops")
linear_flops = spec.function("flops.linear_flops")
cruncher_flops = spec.function("flops.cruncher_flops")

tokens = st.one_of(st.integers(2**30, 2**44), st.sampled_from([15 * 10**12, 15 * 10**12 + 1]))
widths = st.one_of(st.integers(2**10, 2**17), st.sampled_from([8192, 12288, 28672, 53248]))


@st.composite
def run_sized_cases(draw):
    """((m, k, n), (tokens, d_in, d_out), (batch, dim, num_layers[, input_requires_grad]), (batch, width)):
    the last, of a linear layer and a batched product on the meta device whose counts pass 2**53."""
    matmul = (draw(tokens), draw(widths), draw(widths))
    linear = (draw(tokens), draw(widths), draw(widths))
    flag = draw(st.sampled_from([(), (False,), (True,)]))
    cruncher = (draw(tokens), draw(widths), draw(st.integers(0, 128)), *flag)
    return matmul, linear, cruncher, (draw(st.integers(2**10, 2**12)), draw(widths))


def meta_scenario(batch: int, width: int) -> tuple:
    """count_scenario's arguments: a linear layer over 2**40 + 1 tokens and a batch of [width, width] @
    [width, width] products (all a little over), forward and backward, on the meta device."""
    ops = [("linear", (2**40 + 1, width, 3 * width), (True, True, True)),
           ("bmm", (batch, width + 1, width + 1, width + 3), (True, False))]
    return ops, True, 0, "meta"


# the batched product's own count past 2**63 (an int64 product wraps to a negative number) and past 2**64 (to a
# small positive one): a batch below 2048 at width 2**17 stays under 2**63, and a drawn one reaches it at some seeds
@given(case=run_sized_cases())
@example(case=((15 * 10**12 + 1, 8192, 28672), (2**44 + 1, 12288, 3 * 12288), (2**40 + 3, 2**16 + 1, 95, True),
               (3001, 2**17)))
@example(case=((2**30, 2**10, 2**10), (2**30, 2**10, 2**10), (2**30, 2**10, 0), (4097, 2**17)))
def test_flops_of_whole_runs(impl, oracle, case):
    matmul, linear, cruncher, counted = case
    exactly(ask(impl, oracle, matmul_flops, *matmul))
    exactly(ask(impl, oracle, linear_flops, *linear))
    exactly(ask(impl, oracle, cruncher_flops, *cruncher))
    exactly(ask(impl, oracle, count_scenario, *meta_scenario(*counted), returns=INT))
    counts_with_its_own_mode(impl)  # torch's counter gives these counts too: no point for it here either
