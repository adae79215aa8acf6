"""Part 7, hidden — the shapes the public tests never draw.

linear_backward: single elements, an empty batch (n = 0: grad_x is empty, grad_w all zeros,
since a sum over no rows is 0), tall x (many rows, one or two features) and wide w or x.
squared_error_grad: vectors past the public tests' length of 6 (up to 300).
Compared as the public tests compare (see tests/test_part07_gradients.py).
"""

from grader.harness.cases import given
from tests.strategies import part07 as S
from tests.test_part07_gradients import check_grad_w, check_grad_x, check_squared_error_grad


@given(linear=S.extreme_linear_cases(), squared=S.long_squared_error_cases())
def test_shapes_past_the_public_tests(impl, oracle, linear, squared):
    check_grad_x(impl, oracle, *linear)
    check_grad_w(impl, oracle, *linear)
    check_squared_error_grad(impl, oracle, *squared)
