"""Part 4 — FLOP accounting (assignment/flops.py).

FLOP counts are exact integers, compared exactly. The 6PD and time estimates
are floats compared to 1e-12 relative: any correct order of the same few
multiplications lands within a few units in the last place.

``count_matmul_flops`` is given a function that the probe ``flops.count_scenario``
builds from a plain description (ops, shapes, which operands require grad), so
the count can only be right if the student's dispatch mode sees what ran.
"""

from hypothesis import example, given

from grader.harness.expect import FLOAT, INT, RecordOf, Tuple, agree, agree_run, close
from grader.harness.oracle import cases
from tests.strategies import part04 as S

ESTIMATE = close(rel=1e-12)
COUNT = "flops.count_matmul_flops"
LINEAR_FLOPS = RecordOf("LinearFlops", "namedtuple", forward=INT, backward_input=INT, backward_weight=INT)


@given(sizes=cases("flops.matmul_flops", S.matmul_sizes()))
@example(sizes=(100, 256, 512))
def test_matmul_flops(impl, oracle, sizes):
    agree(impl, oracle, "flops.matmul_flops", *sizes, returns=INT)


@given(sizes=cases("flops.linear_flops", S.matmul_sizes()))
@example(sizes=(100, 256, 512))
def test_linear_flops(impl, oracle, sizes):
    agree(impl, oracle, "flops.linear_flops", *sizes, returns=LINEAR_FLOPS)


@given(budget=cases("flops.training_flops", S.training_budgets()))
@example(budget=(70e9, 15e12))
@example(budget=(70 * 10**9, 15 * 10**12))
def test_training_flops(impl, oracle, budget):
    agree(impl, oracle, "flops.training_flops", *budget, returns=FLOAT, compare=ESTIMATE)


@given(case=cases("flops.training_seconds", S.training_time_cases()))
@example(case=(6.3e24, 1024, 989.5e12, 0.5))
def test_training_seconds(impl, oracle, case):
    agree(impl, oracle, "flops.training_seconds", *case, returns=FLOAT, compare=ESTIMATE)


@given(case=cases("flops.cruncher_flops", S.cruncher_cases()))
@example(case=(100, 256, 1))
@example(case=(100, 256, 1, True))
@example(case=(8, 4, 0))
def test_cruncher_flops(impl, oracle, case):
    agree(impl, oracle, "flops.cruncher_flops", *case, returns=Tuple(INT, INT))


@given(scenario=cases("flops.count_forward", S.forward_scenarios()))
@example(scenario=([("mm", (3, 4, 5), (False, False))], False, 0))
def test_count_matmul_flops_forward(impl, oracle, scenario):
    agree_run(impl, oracle, "flops.count_scenario", *scenario, returns=INT, subject=COUNT)


@given(scenario=cases("flops.count_backward", S.backward_scenarios()))
@example(scenario=([("mm", (3, 4, 5), (True, False))], True, 0))
def test_count_matmul_flops_backward(impl, oracle, scenario):
    agree_run(impl, oracle, "flops.count_scenario", *scenario, returns=INT, subject=COUNT)
