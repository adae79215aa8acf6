"""Part 1 — storage, strides, views (assignment/strides.py).

Every answer here is integers, so every comparison is exact.
"""

from hypothesis import example, given

from grader.harness.expect import BOOL, INT, Optional, Tuple, TupleOf, agree
from grader.harness.oracle import cases
from tests.strategies import part01 as S

SHAPE = TupleOf(INT)
STRIDES = TupleOf(INT)


@given(shape=cases("strides.contiguous_strides", S.shapes()))
@example(shape=(3, 4))
def test_contiguous_strides(impl, oracle, shape):
    agree(impl, oracle, "strides.contiguous_strides", shape, returns=STRIDES)


@given(case=cases("strides.flat_index", S.flat_index_cases()))
@example(case=((1, 2), (4, 1), 0))
def test_flat_index(impl, oracle, case):
    agree(impl, oracle, "strides.flat_index", *case, returns=INT)


@given(case=cases("strides.is_contiguous", S.layouts()))
def test_is_contiguous(impl, oracle, case):
    agree(impl, oracle, "strides.is_contiguous", *case, returns=BOOL)


@given(case=cases("strides.transpose", S.transpose_cases()))
def test_transpose(impl, oracle, case):
    agree(impl, oracle, "strides.transpose", *case, returns=Tuple(SHAPE, STRIDES))


@given(case=cases("strides.slice_view", S.slice_cases()))
@example(case=((10,), (1,), 0, 0, 2, 8, 3))
def test_slice_view(impl, oracle, case):
    agree(impl, oracle, "strides.slice_view", *case, returns=Tuple(SHAPE, STRIDES, INT))


@given(case=cases("strides.view_strides", S.view_cases()))
@example(case=((3, 2), (1, 3), (6,)))
def test_view_strides(impl, oracle, case):
    agree(impl, oracle, "strides.view_strides", *case, returns=Optional(STRIDES))
