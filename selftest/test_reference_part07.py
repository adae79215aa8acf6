"""Staff check: the Part 7 reference equals autograd on the graded tests' inputs, rejects
bad shapes, and the autograd probe flags every way of differentiating automatically.
"""

import pytest
import torch
from hypothesis import given

from grader.harness.probes import part07 as P
from reference import gradients as R
from tests.strategies import part07 as S


def assert_within(got, expected, scale, terms):
    """The graded tests' tolerance: 4·(k+2)·(eps·scale + tiny), elementwise."""
    info = torch.finfo(expected.dtype)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert bool(((got.double() - expected.double()).abs()
                 <= 4 * (terms + 2) * (info.eps * scale + info.tiny)).all())


def autograd_squared_error_grad(x, w, target):
    w = w.detach().clone().requires_grad_(True)
    (0.5 * (x @ w - target) ** 2).backward()
    return w.grad


def autograd_linear_backward(x, w, grad_y):
    x = x.detach().clone().requires_grad_(True)
    w = w.detach().clone().requires_grad_(True)
    (x @ w).backward(grad_y)
    return x.grad, w.grad


@given(S.squared_error_cases())
def test_squared_error_grad_is_autograds(case):
    x, w, target = case
    x64, w64 = x.double().abs(), w.double().abs()
    assert_within(R.squared_error_grad(x, w, target), autograd_squared_error_grad(x, w, target),
                  x64 * (x64 @ w64 + abs(target)), len(x))


def check_linear(case):
    x, w, grad_y = case
    grad_x, grad_w = R.linear_backward(x, w, grad_y)
    auto_x, auto_w = autograd_linear_backward(x, w, grad_y)
    assert_within(grad_x, auto_x, grad_y.double().abs() @ w.double().abs().T, w.shape[1])
    if x.shape[0] == 0:  # autograd leaves no gradient for an empty product: zeros by definition
        auto_w = torch.zeros_like(w) if auto_w is None else auto_w
    assert_within(grad_w, auto_w, x.double().abs().T @ grad_y.double().abs(), x.shape[0])


@given(S.linear_cases())
def test_linear_backward_is_autograds(case):
    check_linear(case)


@given(S.extreme_linear_cases())
def test_linear_backward_extreme_shapes_are_autograds(case):
    check_linear(case)


def test_docstring_examples():
    x, w = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 1.0, 1.0])
    assert R.squared_error_grad(x, w, 5.0).tolist() == [1.0, 2.0, 3.0]
    grad_x, grad_w = R.linear_backward(torch.ones(100, 256), torch.ones(256, 512), torch.ones(100, 512))
    assert grad_x.shape == (100, 256) and grad_w.shape == (256, 512)
    grad_x, grad_w = R.linear_backward(torch.tensor([[1.0, 2.0]]), torch.tensor([[3.0], [4.0]]),
                                       torch.tensor([[1.0]]))
    assert grad_x.tolist() == [[3.0, 4.0]] and grad_w.tolist() == [[1.0], [2.0]]
    grad_x, grad_w = R.linear_backward(torch.ones(0, 3), torch.ones(3, 2), torch.ones(0, 2))
    assert grad_x.shape == (0, 3) and torch.equal(grad_w, torch.zeros(3, 2))


def test_tolerance_catches_float32_work_on_float64_inputs():
    """The float64 bound is tight enough that computing in float32 shows."""
    x = torch.tensor([1.0 / 3, 2.0 / 7, 5.0 / 11], dtype=torch.float64)
    w = torch.tensor([0.1, 0.7, 0.3], dtype=torch.float64)
    sloppy = (x.float() * (x.float() @ w.float() - 0.2)).double()
    with pytest.raises(AssertionError):
        assert_within(sloppy, R.squared_error_grad(x, w, 0.2), x.abs() * (x.abs() @ w.abs() + 0.2), 3)


@pytest.mark.parametrize("call", [
    lambda: R.squared_error_grad(torch.ones(3), torch.ones(4), 1.0),
    lambda: R.squared_error_grad(torch.ones(1, 3), torch.ones(1, 3), 1.0),
    lambda: R.linear_backward(torch.ones(2, 3), torch.ones(4, 5), torch.ones(2, 5)),
    lambda: R.linear_backward(torch.ones(2, 3), torch.ones(3, 5), torch.ones(2, 4)),
    lambda: R.linear_backward(torch.ones(2, 3), torch.ones(3, 5), torch.ones(3, 5)),
    lambda: R.linear_backward(torch.ones(3), torch.ones(3, 5), torch.ones(5)),
], ids=["lengths differ", "2-D x", "inner sizes differ", "grad_y width", "grad_y rows", "1-D x"])
def test_bad_arguments_raise_value_error(call):
    with pytest.raises(ValueError, match=r"\w"):
        call()


# ---------------------------------------------------------------- the autograd probe
X, W, T = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 1.0, 1.0]), 5.0


def loss(w):
    return 0.5 * (X @ w - T) ** 2


def via_autograd_grad(x, w, t):
    w = w.detach().requires_grad_(True)
    return torch.autograd.grad(loss(w), w)[0]


def via_func_grad(x, w, t):
    return torch.func.grad(loss)(w)


def via_jacrev(x, w, t):
    return torch.func.jacrev(loss)(w)


def via_jacfwd(x, w, t):
    return torch.func.jacfwd(loss)(w)


def via_functional_vjp(x, w, t):
    return torch.autograd.functional.vjp(loss, w)[1]


def via_forward_ad(x, w, t):
    import torch.autograd.forward_ad as fwAD

    rows = []
    with fwAD.dual_level():
        for i in range(len(w)):
            rows.append(fwAD.unpack_dual(loss(fwAD.make_dual(w, torch.eye(len(w))[i]))).tangent)
    return torch.stack(rows)


def leaking_graph(x, w, t):
    w = w.detach().requires_grad_(True)
    return x * (x @ w - t)


@pytest.mark.parametrize("fn", [
    autograd_squared_error_grad, via_autograd_grad, via_func_grad, via_jacrev, via_jacfwd,
    via_functional_vjp, via_forward_ad, leaking_graph,
], ids=lambda fn: fn.__name__)
def test_probe_flags_autograd(fn):
    use = P._autograd_use(fn, X, W, T)
    assert use["graph"] or use["backward"] or use["forward_ad"] or use["result_has_grad_fn"], use


def test_probe_clears_the_reference_and_restores_torch():
    engine = torch.autograd.variable.Variable._execution_engine
    assert P._autograd_use(R.squared_error_grad, X, W, T) == {
        "graph": 0, "backward": 0, "forward_ad": 0, "result_has_grad_fn": False}
    assert P._autograd_use(R.linear_backward, torch.ones(2, 3), torch.ones(3, 4), torch.ones(2, 4))[
        "backward"] == 0
    assert P._autograd_use(autograd_linear_backward, torch.ones(2, 3), torch.ones(3, 4),
                           torch.ones(2, 4))["backward"] == 1
    assert torch.autograd.variable.Variable._execution_engine is engine
    x = torch.ones(2, requires_grad=True)
    (x * x).sum().backward()  # autograd still works afterwards
    assert x.grad.tolist() == [2.0, 2.0]
