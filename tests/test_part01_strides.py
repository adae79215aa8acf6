"""Part 1 — storage, strides, views (assignment/strides.py).

Every answer here is integers, so every comparison is exact. Each worked example
of a docstring is an explicit example of its test.
"""

from hypothesis import settings

from grader.harness import spec
from grader.harness.ask import ask
from grader.harness.cases import example, given
from tests.strategies import part01 as S

contiguous_strides = spec.function("strides.contiguous_strides")
flat_index = spec.function("strides.flat_index")
is_contiguous = spec.function("strides.is_contiguous")
transpose = spec.function("strides.transpose")
slice_view = spec.function("strides.slice_view")
view_strides = spec.function("strides.view_strides")


@given(shape=S.shapes())
@example(shape=(3, 4))
@example(shape=(2, 3, 4))
@example(shape=())
@example(shape=(2, 0, 3))
@example(shape=(3, 3**17 + 2, 3**17))  # a stride past 2**53, odd: exact integers, not floats
def test_contiguous_strides(impl, oracle, shape):
    ask(impl, oracle, contiguous_strides, shape).same()


@given(case=S.flat_index_cases())
@example(case=((1, 2), (4, 1), 0))
@example(case=((1, 2), (4, 1), 10))
@example(case=((1, 2), (4, 1)))  # offset left to its default, 0
@example(case=((70000, 3), (65536, 1), 2**40))  # past 2**31: Python's exact integers, not int32
@example(case=((70000, 3), (65536, 1), 2**53 + 2))  # past 2**53, odd: no float64 holds it
def test_flat_index(impl, oracle, case):
    ask(impl, oracle, flat_index, *case).same()


@given(case=S.layouts())
@example(case=((3, 4), (4, 1)))
@example(case=((4, 3), (1, 4)))
@example(case=((3, 1), (1, 99)))
@example(case=((0, 5), (7, 7)))
@example(case=((3, 0), (7, 7)))  # empty in its last dim: contiguous too, whatever its strides
@example(case=((4, 3), (0, 1)))  # stride 0 (an expanded dim) on a dim of size 4: not contiguous
@example(case=((1, 3), (0, 1)))  # a row of an expanded tensor (x.expand(4, 3)[1:2]): stride 0 on size 1, contiguous
@example(case=((3, 1), (1, 0)))  # x.expand(3, 5)[:, 2:3]: the same on the last dim
def test_is_contiguous(impl, oracle, case):
    ask(impl, oracle, is_contiguous, *case).same()


@given(case=S.transpose_cases())
@example(case=((2, 3), (3, 1), 0, 1))
@example(case=((), (), 0, -1))  # a 0-d tensor: torch takes dims 0 and -1 (as for a 1-d one) and changes nothing
def test_transpose(impl, oracle, case):
    ask(impl, oracle, transpose, *case).same()


@given(case=S.slice_cases())
@example(case=((10,), (1,), 0, 0, 2, 8, 3))  # x[2:8:3]
@example(case=((10,), (1,), 0, 0, 2, 9, 3))  # x[2:9:3]: 2, 5, 8, a length that rounds up
@example(case=((10,), (1,), 0, 0, -3, 100, 1))  # x[-3:100]
@example(case=((10,), (1,), 0, 0, 12, 15, 1))  # x[12:15]: empty, start clamped to 10
@example(case=((10,), (1,), 5, 0, 1, 7))  # x[1:7], step left to its default, 1
@example(case=((3**17 + 2,), (3**17,), 5, 0, 3**17 + 1, 3**17 + 2, 1))  # an offset past 2**53, odd: exact ints
def test_slice_view(impl, oracle, case):
    ask(impl, oracle, slice_view, *case).same()


@settings(max_examples=150)  # the most rules of Part 1, and each example costs microseconds
@given(case=S.view_cases())
@example(case=((2, 3), (3, 1), (3, 2)))
@example(case=((2, 3), (3, 1), (6,)))
@example(case=((3, 2), (1, 3), (6,)))
@example(case=((3, 2), (1, 3), (3, 2, 1)))
# the docstring's special cases and rules, each checked on every run, not only when drawn by chance
@example(case=((3, 4), (0, 1), (3, 2, 2)))  # an expanded tensor (a stride of 0) is viewed too: (0, 2, 1)
@example(case=((0, 3), (7, 7), (0, 3)))  # empty, viewed as its own shape: its own strides (7, 7)
@example(case=((2, 0), (0, 5), (2, 0)))  # the same: (0, 5), not contiguous (1, 1)
@example(case=((0, 3, 2), (7, 7, 7), (0, 3, 2)))  # the same in three dims: (7, 7, 7)
@example(case=((0, 3), (7, 7), (3, 0)))  # empty, viewed as another shape: contiguous (1, 1)
@example(case=((), (), (1, 1)))  # a 0-d tensor viewed as (1, 1): (1, 1)
@example(case=((1, 1), (5, 7), ()))  # one element viewed as a 0-d tensor: ()
@example(case=((2, 1, 3), (3, 99, 1), (6,)))  # a size-1 dim does not break the chunk: (1,)
@example(case=((2, 1, 3), (3, 99, 1), (2, 1, 3)))  # its own shape: (3, 3, 1), the size-1 dim's stride made afresh
@example(case=((2, 3), (6, 1), (2, 1, 3)))  # a size-1 dim where two chunks meet is the inner one's: (6, 3, 1)
def test_view_strides(impl, oracle, case):
    ask(impl, oracle, view_strides, *case).same()
