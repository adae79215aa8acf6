"""Part 7 — gradients by hand (assignment/gradients.py).

Values: float sums may round differently in a different order, so each value is
compared with the reference's within the rounding error a sum of k terms can have,
elementwise: 4·(k+2)·(eps·B + tiny), eps and tiny of the inputs' dtype, and B the
same formula with every input replaced by its absolute value (the largest the
rounding error can scale with):

    squared_error_grad  B = |x|·(|x|·|w| + |target|)   k = len(x)
    grad_x              B = |grad_y| @ |w|ᵀ             k = d_out
    grad_w              B = |x|ᵀ @ |grad_y|             k = n

That is a few roundings per term: any correct formula passes, in any order of
summation, and a wrong sign, factor or transposition misses by far more. Dtype and
shape must be the inputs' exactly.
"""

import torch
from hypothesis import example, given

from grader.harness.door import describe_call
from grader.harness.expect import BOOL, INT, Anything, Dict, Schema, Tensor, Tuple, beyond, check, require
from grader.harness.faults import Mismatch
from grader.harness.oracle import cases
from tests.strategies import part07 as S


class Gradients(Schema):
    """A tuple (grad_x, grad_w) of which only one, ``item``, is checked against ``schema``:
    a wrong grad_w must not cost the grad_x test, and the reverse."""

    NAMES = ("grad_x", "grad_w")
    text = "a tuple (grad_x, grad_w)"

    def __init__(self, item: int, schema: Schema) -> None:
        self.item, self.schema = item, schema
        self.pair = Tuple(Anything(), Anything())
        self.pair.text = self.text

    def problem(self, value):
        why = self.pair.problem(value)
        if why:
            return why
        why = self.schema.problem(value[self.item])
        return f"{self.NAMES[self.item]}: {why}" if why else None


def agree_within(impl, oracle, function: str, args: tuple, *, returns: Schema, item: int | None,
                 scale: torch.Tensor, terms: int, formula: str) -> None:
    """The implementation's ``function(*args)`` (its ``item``, if a tuple) must be the
    reference's within 4·(terms+2)·(eps·scale + tiny), elementwise."""
    expected = oracle.call(function, *args)
    got = impl.call(function, *args)
    inputs = describe_call("call", (function, *args))
    check(got, returns, function, inputs)
    name = ""
    if item is not None:
        got, expected = got[item], expected[item]
        name = f" in {Gradients.NAMES[item]}"
    info = torch.finfo(expected.dtype)
    why = beyond(got, expected, 4 * (terms + 2) * (info.eps * scale + info.tiny))
    if why:
        dtype = str(expected.dtype).removeprefix("torch.")
        raise Mismatch(function, f"wrong value{name}: {why}", inputs=inputs, got=got, expected=expected,
                       how=f"compared elementwise within 4·(k+2)·eps·B with B = {formula}, "
                           f"k = {terms}, eps = {info.eps:.3g} of {dtype}")


def check_squared_error_grad(impl, oracle, x, w, target):
    x64, w64 = x.double().abs(), w.double().abs()
    agree_within(impl, oracle, "gradients.squared_error_grad", (x, w, target),
                 returns=Tensor(x.dtype, tuple(x.shape)), item=None,
                 scale=x64 * (x64 @ w64 + abs(target)), terms=len(x),
                 formula="|x|·(|x|·|w| + |target|)")


def check_grad_x(impl, oracle, x, w, grad_y):
    agree_within(impl, oracle, "gradients.linear_backward", (x, w, grad_y),
                 returns=Gradients(0, Tensor(x.dtype, tuple(x.shape))), item=0,
                 scale=grad_y.double().abs() @ w.double().abs().T, terms=w.shape[1],
                 formula="|grad_y| @ |w|ᵀ")


def check_grad_w(impl, oracle, x, w, grad_y):
    agree_within(impl, oracle, "gradients.linear_backward", (x, w, grad_y),
                 returns=Gradients(1, Tensor(w.dtype, tuple(w.shape))), item=1,
                 scale=x.double().abs().T @ grad_y.double().abs(), terms=x.shape[0],
                 formula="|x|ᵀ @ |grad_y|")


LECTURE = (torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 1.0, 1.0]), 5.0)
SMALL_LINEAR = (torch.tensor([[1.0, 2.0]]), torch.tensor([[3.0], [4.0]]), torch.tensor([[1.0]]))


@given(case=cases("gradients.squared_error_grad", S.squared_error_cases()))
@example(case=LECTURE)
def test_squared_error_grad(impl, oracle, case):
    check_squared_error_grad(impl, oracle, *case)


@given(case=cases("gradients.linear_backward", S.linear_cases()))
@example(case=SMALL_LINEAR)
def test_linear_backward_grad_x(impl, oracle, case):
    check_grad_x(impl, oracle, *case)


@given(case=cases("gradients.linear_backward", S.linear_cases()))
@example(case=SMALL_LINEAR)
def test_linear_backward_grad_w(impl, oracle, case):
    check_grad_w(impl, oracle, *case)


AUTOGRAD_USE = Dict(graph=INT, backward=INT, forward_ad=INT, result_has_grad_fn=BOOL)


def require_no_autograd(impl, probe: str, function: str, args: tuple) -> None:
    inputs = describe_call(probe, args)
    use = check(impl.run(probe, *args), AUTOGRAD_USE, function, inputs)
    signs = [text for text, seen in (
        (f"an autograd graph was recorded ({use['graph']} ops)", use["graph"]),
        (f"a backward pass ran ({use['backward']}x)", use["backward"]),
        (f"forward-mode dual tensors were made ({use['forward_ad']})", use["forward_ad"]),
        ("the result is attached to an autograd graph", use["result_has_grad_fn"]),
    ) if seen]
    require(not signs, function,
            f"used autograd ({'; '.join(signs)}): compute the gradient with the formula, "
            "using plain tensor ops", inputs=inputs, show_values=False)


# cases of their own: the handout replays a case name's recordings in every test that uses
# it, and these tests never ask the oracle, so no answers are recorded for them
@given(squared=cases("gradients.no_autograd_squared", S.squared_error_cases()),
       linear=cases("gradients.no_autograd_linear", S.linear_cases()))
@example(squared=LECTURE, linear=SMALL_LINEAR)
def test_no_autograd(impl, squared, linear):
    require_no_autograd(impl, "gradients.autograd_in_squared_error_grad",
                        "gradients.squared_error_grad", squared)
    require_no_autograd(impl, "gradients.autograd_in_linear_backward",
                        "gradients.linear_backward", linear)
