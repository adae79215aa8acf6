"""Part 7, hidden — linear_backward on the shapes the public tests never draw.

Single elements, an empty batch (n = 0: grad_x is empty, grad_w all zeros, since a
sum over no rows is 0), tall x (many rows, one or two features) and wide w or x.
Compared as the public tests compare (see tests/test_part07_gradients.py).
"""

from grader.harness.cases import given
from tests.strategies import part07 as S
from tests.test_part07_gradients import check_grad_w, check_grad_x


@given(case=S.extreme_linear_cases())
def test_linear_backward_extreme_shapes(impl, oracle, case):
    check_grad_x(impl, oracle, *case)
    check_grad_w(impl, oracle, *case)
