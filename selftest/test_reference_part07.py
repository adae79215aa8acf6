"""Staff check: the Part 7 reference equals autograd on the graded tests' inputs, rejects
bad shapes, and reading a source flags every way of differentiating automatically.
"""

from pathlib import Path

import pytest
import torch
from hypothesis import given

from grader.harness.impl import stage_submission
from grader.harness.source import Module, audit_no_autograd
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


# ---------------------------------------------------------------- reading the source for autograd
ROOT = Path(__file__).resolve().parent.parent
HEAD = "import torch\n\n"
PLAIN_LINEAR = "\n\ndef linear_backward(x, w, grad_y):\n    return grad_y @ w.T, x.T @ grad_y\n"
AUTOGRAD = {
    # grad_fn called, or compared with anything but None, is autograd's graph at work
    "a result's grad_fn called": "def squared_error_grad(x, w, t):\n    g = x @ w\n    return g.grad_fn(t)\n",
    "a grad_fn compared and handed on": "def squared_error_grad(x, w, t):\n    f = (x @ w).grad_fn\n"
                                        "    return f is None or f(t)\n",
    # an autograd import left unused only where nothing hands the module's names out by text
    "an import the namespace hands out": "from torch.autograd import grad as _g\n\n"
                                         "def squared_error_grad(x, w, t):\n    return globals()['_g'](x, w)\n",
    "an import used by a helper": "from torch.autograd import grad\n\ndef _helper(x, w):\n    return grad(x, w)\n\n"
                                  "def squared_error_grad(x, w, t):\n    return _helper(x, w)\n",
    # library code that differentiates for its caller: an exponential family's entropy runs autograd.grad on
    # its log normalizer, and kl_divergence of two such families does too
    "an exponential family's entropy": "class _Family(torch.distributions.exp_family.ExponentialFamily):\n"
                                       "    def _log_normalizer(self, p):\n        return p.sum()\n\n"
                                       "def squared_error_grad(x, w, t):\n    return _Family().entropy()\n",
    "kl_divergence imported by name": "from torch.distributions import kl_divergence\n\n"
                                      "def squared_error_grad(x, w, t):\n    return kl_divergence(x, w)\n",
    "a graphed callable": "def squared_error_grad(x, w, t):\n"
                          "    return torch.cuda.make_graphed_callables(lambda v: v, (w,))(w)\n",
    # a method of one's own named save_for_backward covers only what no reading can name, never torch's Function
    "torch's Function beside a context of one's own": "class _Ctx:\n    def save_for_backward(self, *t):\n"
                                                      "        self.saved = t\n\n"
                                                      "class _Sq(torch.autograd.Function):\n"
                                                      "    @staticmethod\n    def forward(ctx, w):\n"
                                                      "        ctx.save_for_backward(w)\n        return w * w\n\n"
                                                      "def squared_error_grad(x, w, t):\n    return _Sq.apply(w)\n",
    "a backward of one's own name on a tensor": "class _Node:\n    def backward(self):\n        return 0\n\n"
                                                "def squared_error_grad(x, w, t):\n"
                                                "    w.requires_grad_()\n    (x @ w).backward()\n    return w.grad\n",
    "a method bound again in its class": "class _Op:\n    def leaf(self):\n        return self.requires_grad_()\n"
                                         "    make = leaf\n\n"
                                         "def squared_error_grad(x, w, t):\n    return _Op.make(w)\n",
    "a string in an annotation's name": "import functools\n\n_S = '[torch.autograd.grad, int][1]'\n\n"
                                        "def _f(a: _S):\n    pass\n\n"
                                        "def squared_error_grad(x, w, t):\n"
                                        "    functools.singledispatch(_f).register(_f)\n    return x\n",
    "a format string's field": "def squared_error_grad(x, w, t):\n    return float('{0.grad}'.format(w))\n",
    "... nested in another's format spec": "class _E:\n    def __format__(self, spec):\n        return spec\n\n"
                                           "def squared_error_grad(x, w, t):\n"
                                           "    return '{0:{1.grad}}'.format(_E(), w)\n",
    "an Enum's hook, run as the class is made": "import enum\n\n_R = {}\n\nclass _K(enum.Enum):\n"
                                                "    def _generate_next_value_(name, start, count, last):\n"
                                                "        _R['g'] = torch.autograd.grad\n        return name\n"
                                                "    G = enum.auto()\n\n"
                                                "def squared_error_grad(x, w, t):\n    return _R['g'](x, w)\n",
    "an Enum member's __init__": "import enum\n\n_R = {}\n\nclass _K(enum.Enum):\n    G = 'g'\n\n"
                                 "    def __init__(self, value):\n        _R[value] = torch.autograd.grad\n\n"
                                 "def squared_error_grad(x, w, t):\n    return _R['g'](x, w)\n",
    "a forward reference typeguard evaluates": "import typing, typeguard\n\n_T = typing.List['(w.requires_grad_(), w)[1]']\n\n"
                                               "def squared_error_grad(x, w, t):\n"
                                               "    typeguard.check_type('w', [w], _T)\n    return x\n",
    "backward": "def squared_error_grad(x, w, t):\n    w = w.detach().requires_grad_(True)\n"
                "    (0.5 * (x @ w - t) ** 2).backward()\n    return w.grad\n",
    "autograd.grad": "def squared_error_grad(x, w, t):\n    w = w.clone()\n"
                     "    return torch.autograd.grad((x @ w) ** 2, w)[0]\n",
    "func.grad": "def squared_error_grad(x, w, t):\n    return torch.func.grad(lambda w: (x @ w - t) ** 2)(w)\n",
    "from torch.func": "from torch.func import jacrev\n\ndef squared_error_grad(x, w, t):\n"
                       "    return jacrev(lambda w: (x @ w - t) ** 2)(w)\n",
    "functional": "import torch.autograd.functional as AF\n\ndef squared_error_grad(x, w, t):\n"
                  "    return AF.vjp(lambda w: (x @ w - t) ** 2, w)[1]\n",
    "forward_ad": "import torch.autograd.forward_ad as fwAD\n\ndef squared_error_grad(x, w, t):\n"
                  "    return fwAD.make_dual(w, w)\n",
    "requires_grad keyword": "def squared_error_grad(x, w, t):\n    w = torch.tensor(w.tolist(), requires_grad=True)\n"
                             "    return w\n",
    "engine captured at import": "_engine = torch.autograd.variable.Variable._execution_engine\n\n"
                                 "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n",
    "helper in the module": "def _helper(w):\n    return w.grad\n\ndef squared_error_grad(x, w, t):\n"
                            "    return _helper(w)\n",
    "grad mode turned on": "def squared_error_grad(x, w, t):\n    with torch.set_grad_enabled(True):\n"
                           "        w = w.detach().requires_grad_()\n    return x * (x @ w - t)\n",
    "grad mode set by a flag": "def squared_error_grad(x, w, t, on=True):\n    with torch.set_grad_enabled(on):\n"
                               "        return x * (x @ w - t)\n",
    "autograd's grad, spelt through autograd": "def squared_error_grad(x, w, t):\n"
                                               "    with torch.autograd.no_grad():\n        pass\n"
                                               "    return torch.autograd.grad((x @ w) ** 2, w)[0]\n",
    "a keyword of its own function, rebound": "def _chain(x, grad):\n    return x\n\n_chain = torch.autograd.backward\n\n"
                                              "def squared_error_grad(x, w, t):\n    return _chain(x, grad=w)\n",
    "a helper that may return a tensor, not its own record": "from dataclasses import dataclass\n\n"
                                                             "@dataclass(frozen=True)\nclass VG:\n    grad: torch.Tensor\n\n"
                                                             "def _vg(w):\n    if w.dim() > 5:\n        return VG(grad=w)\n"
                                                             "    return w\n\n"
                                                             "def squared_error_grad(x, w, t):\n    return _vg(w).grad\n",
    # a branch that looks dead, under a name bound where a reading of stores alone would not see it
    "__main__ block with __name__ a parameter": "def squared_error_grad(x, w, t, __name__='__main__'):\n"
                                               "    if __name__ == '__main__':\n"
                                               "        return torch.autograd.grad((x @ w) ** 2, w)[0]\n",
    "__main__ block with __name__ imported": "from math import pi as __name__\n\nif __name__ != '__main__':\n"
                                            "    torch.autograd.grad\n\ndef squared_error_grad(x, w, t):\n    return x\n",
    # ... or made to run: typing's flag set by code of the module
    "TYPE_CHECKING set to True": "import typing\n[typing][0].TYPE_CHECKING = True\n\nif typing.TYPE_CHECKING:\n"
                                 "    torch.autograd.grad\n\ndef squared_error_grad(x, w, t):\n    return x\n",
    "TYPE_CHECKING a parameter": "from typing import TYPE_CHECKING\n\n"
                                 "def squared_error_grad(x, w, t, TYPE_CHECKING=False):\n    if TYPE_CHECKING:\n"
                                 "        pass\n    else:\n        return torch.autograd.grad((x @ w) ** 2, w)[0]\n",
    # a class pattern reads attributes as surely as a dot does
    "grad read by a match pattern": "def squared_error_grad(x, w, t):\n    match w:\n"
                                    "        case object(grad=g):\n            return g\n",
    "autograd read by a match pattern": "def squared_error_grad(x, w, t):\n    match torch:\n"
                                        "        case object(autograd=engine):\n            return engine.grad(x, w)\n",
    "grad read by position behind a ClassVar that is no field": (
        "from dataclasses import dataclass\nfrom typing import ClassVar\n\n@dataclass\nclass Seen:\n"
        "    label: ClassVar[str] = 'g'\n    grad: object\n\n"
        "def squared_error_grad(x, w, t):\n    match w:\n        case Seen(g):\n            return g\n    return x\n"),
    "grad read by position through its own dataclass's field": (
        "from dataclasses import dataclass\n\n@dataclass\nclass Seen:\n    grad: object\n\n"
        "def squared_error_grad(x, w, t):\n    match w:\n        case Seen(g):\n            return g\n    return x\n"),
    "aten backward op": "def squared_error_grad(x, w, t):\n"
                        "    return torch.ops.aten.mse_loss_backward(x, w, t, 1)\n",
    "a class's method": "class Tape:\n    @staticmethod\n    def compute(x, w, t):\n"
                        "        w = w.detach().clone().requires_grad_(True)\n        (x @ w - t).sum().backward()\n"
                        "        return w.grad.detach()\n\ndef squared_error_grad(x, w, t):\n    return Tape.compute(x, w, t)\n",
    "a class body at import": "class Kept:\n    g = torch.autograd.grad\n\n"
                              "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n",
    "a decorator at import": "def _patch(f):\n    torch.Tensor.backward\n    return f\n\n@_patch\ndef unused():\n    pass\n\n"
                             "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n",
    "rebound after its def": "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n\n"
                             "def _auto(x, w, t):\n    return torch.autograd.grad((x @ w - t) ** 2, w)[0]\n\n"
                             "squared_error_grad = _auto\n",
    "string annotation": "import typing\n\ndef _tools(g: 'torch.autograd.grad'):\n    pass\n\n"
                         "def squared_error_grad(x, w, t):\n    return typing.get_type_hints(_tools)['g']\n",
    # a flag another module can set (gradients.CHECK = True in __init__): not read as a constant here
    "behind a flag": "CHECK = False\n\ndef squared_error_grad(x, w, t):\n    if CHECK:\n"
                     "        w = w.detach().requires_grad_(True)\n    return x * (x @ w - t)\n",
    # what the submission's own function returns may be a tensor: its .backward is autograd's
    "through a function's result": "def _make(**kw):\n    return torch.ones(3, **kw)\n\ndef _loss(w):\n    return w.sum()\n\n"
                                   "def squared_error_grad(x, w, t):\n    v = _make(requires_grad=True)\n"
                                   "    _loss(v).backward()\n    return x * (x @ w - t)\n",
    "a tensor subclass of its own": "class T(torch.Tensor):\n    pass\n\ndef squared_error_grad(x, w, t):\n"
                                    "    return T.backward\n",
    "a nested scope's local": "def helper(w):\n    return w.grad\n\ndef squared_error_grad(x, w, t):\n"
                              "    def inner():\n        helper = 1\n        return helper\n    return helper(w)\n",
    # what is the submission's own only while nothing else can be bound to its name
    "a local bound to its own class, then to a tensor": "class Op:\n    pass\n\ndef squared_error_grad(x, w, t):\n"
                                                       "    op = Op()\n    if x.ndim:\n        op = w.detach()\n"
                                                       "    op.requires_grad_()\n    return x * (x @ w - t)\n",
    "a parameter named as its own class": "class Op:\n    pass\n\ndef _track(Op):\n    return Op.requires_grad_()\n\n"
                                          "def squared_error_grad(x, w, t):\n    return _track(w.detach())\n",
    "a class its decorator replaces": "def _tensor(cls):\n    return torch.Tensor\n\n@_tensor\nclass Op:\n    pass\n\n"
                                      "def squared_error_grad(x, w, t):\n    w = w.detach()\n    Op.requires_grad_(w)\n"
                                      "    return w\n",
    # a method called on its class takes any first argument: its `self` may be a tensor
    "self of a method called on its class": "class Op:\n    def track(self):\n        self.requires_grad_()\n"
                                            "        return self\n\ndef squared_error_grad(x, w, t):\n"
                                            "    return Op.track(w.detach())\n",
    "self of a method called on an object's class": "class Op:\n    def track(self):\n        return self.requires_grad_()\n\n"
                                                     "def squared_error_grad(x, w, t):\n"
                                                     "    return type(Op()).track(w.detach())\n",
    "self of a method called on a class a value holds": "class Op:\n    @classmethod\n    def kind(cls):\n        return cls\n\n"
                                                        "    def track(self):\n        return self.requires_grad_()\n\n"
                                                        "def squared_error_grad(x, w, t):\n    k = Op.kind()\n"
                                                        "    return k.track(w.detach())\n",
    "cls of an implicit classmethod": "class Op:\n    def __class_getitem__(cls, w):\n        return cls.track(w)\n\n"
                                      "    def track(self):\n        return self.requires_grad_()\n\n"
                                      "def squared_error_grad(x, w, t):\n    return Op[w.detach()]\n",
    "self of a class a tensor subclasses": "class Op:\n    def grad_of(self):\n        return self.grad\n\n"
                                           "class T(Op, torch.Tensor):\n    pass\n\n"
                                           "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n",
    "self of a class that makes its own instances": "class Op:\n    def __new__(cls, w):\n        return w\n\n"
                                                    "    def track(self):\n        return self.requires_grad_()\n\n"
                                                    "def squared_error_grad(x, w, t):\n    return Op(w.detach()).track()\n",
    "requires_grad set": "def squared_error_grad(x, w, t):\n    w = w.detach()\n    w.requires_grad = True\n"
                         "    return w\n",
    "getattr of an autograd name among literals": "def squared_error_grad(x, w, t):\n"
                                                  "    return [getattr(w, n) for n in ('T', 'grad')]\n",
    # an annotation that calls something runs it as the module is imported
    "an annotation that calls": "def _make():\n    return torch.ones(1, requires_grad=True)\n\n"
                                "def unused() -> _make():\n    pass\n\n"
                                "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n",
    "a class subscripted in an annotation": "class Box:\n    def __class_getitem__(cls, item):\n"
                                            "        return torch.ones(1, requires_grad=True)\n\n"
                                            "def unused(x: Box[int]):\n    pass\n\n"
                                            "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n",
}
HIDDEN = {
    "locals() handed to the format of text built at run time": (
        "def squared_error_grad(x, w, t, spec='{x}'):\n    _ = (spec + '').format(**locals())\n"
        "    return x * (x @ w - t)\n"),
    "locals() handed on by ** to a function": (
        "def _take(**names):\n    return names\n\n"
        "def squared_error_grad(x, w, t):\n    _ = _take(**locals())\n    return x * (x @ w - t)\n"),
    "a Formatter handing a field's object to code of its own": "import string\n\n"
                                                              "class _Grab(string.Formatter):\n"
                                                              "    def format_field(self, value, spec):\n"
                                                              "        self.got = value\n        return ''\n\n"
                                                              "def squared_error_grad(x, w, t):\n"
                                                              "    g = _Grab()\n    g.format('{0.nn}', torch)\n"
                                                              "    return x\n",
    "update_wrapper told to copy the code": "import functools\n\ndef _mine(x, w, t):\n    return x\n\n"
                                            "def squared_error_grad(x, w, t):\n"
                                            "    functools.update_wrapper(_mine, squared_error_grad, ('__co' 'de__',))\n"
                                            "    return _mine(x, w, t)\n",
    "an annotation's name bound to a string built at run time": "import functools\n\n_S = ''.join(['in', 't'])\n\n"
                                                                 "def _f(a: _S):\n    pass\n\n"
                                                                 "def squared_error_grad(x, w, t):\n"
                                                                 "    functools.singledispatch(_f).register(_f)\n"
                                                                 "    return x\n",
    "a class attribute built at run time, as an annotation": "class _K:\n    s = 'in' + chr(116)\n\n"
                                                              "def squared_error_grad(x: _K.s, w, t):\n    return x\n",
    "a string built at run time, in an annotation's store": "def squared_error_grad(x, w, t):\n"
                                                             "    squared_error_grad.__annotations__['x'] = str(t)\n"
                                                             "    return x\n",
    "a docstring formatted": "def squared_error_grad(x, w, t):\n    '''{0.grad}'''\n"
                             "    return squared_error_grad.__doc__.format(w)\n",
    "inspect signatures evaluating text": "import inspect, dataclasses\n\n"
                                          "def squared_error_grad(x, w, t):\n"
                                          "    S = dataclasses.make_dataclass('S', [('f', str(t))])\n"
                                          "    return inspect.signature(S, eval_str=True)\n",
    "a class's attributes by name": "import inspect\n\ndef squared_error_grad(x, w, t):\n"
                                    "    return inspect.classify_class_attrs(type(x))\n",
    "a class made with text for its field types": "import typing\n\ndef squared_error_grad(x, w, t):\n"
                                                  "    return typing.NamedTuple('S', [('f', 'w.grad')])\n",
    "timeit running a string": "import timeit\n\n_CODE = 'w.requires_grad_(True); (x @ w).backward()'\n\n"
                               "def squared_error_grad(x, w, t):\n"
                               "    timeit.Timer(_CODE, globals={'x': x, 'w': w}).timeit(1)\n    return x\n",
    "a docstring evaluated": "def squared_error_grad(x, w, t):\n    '''g = w.grad'''\n"
                             "    return eval(squared_error_grad.__doc__)\n",
    "an annotation naming a parameter": "import functools\n\ndef _probe(text):\n    def f(a: text):\n        pass\n"
                                        "    functools.singledispatch(f).register(f)\n\n"
                                        "def squared_error_grad(x, w, t):\n    _probe(str(t))\n    return x\n",
    "a module written at run time, imported by a library's name": "import sys\n\n"
                                                                    "def squared_error_grad(x, w, t):\n"
                                                                    "    sys.path.insert(0, '/tmp/v')\n"
                                                                    "    import fractions\n    return x\n",
    "jaxtyping handed on, its shape made at run time": "import jaxtyping\n\ndef _ok(kind, v, dims):\n"
                                                       "    return isinstance(v, kind[torch.Tensor, dims])\n\n"
                                                       "def squared_error_grad(x, w, t):\n"
                                                       "    _ok(jaxtyping.Shaped, x, str(t))\n    return x\n",
    # a module the reading cannot walk (it imports fine): no proof of anything
    "a module nested too deep to read": "_N = " + "+".join(["1"] * 300) + "\n\n",
    "private torch": "def squared_error_grad(x, w, t):\n    return torch._C._functions\n",
    "getattr": "def squared_error_grad(x, w, t):\n    return getattr(torch, 'auto' + 'grad')\n",
    "exec": "def squared_error_grad(x, w, t):\n    exec('import torch')\n    return x\n",
    "dunder": "def squared_error_grad(x, w, t):\n    return type(x).__dict__\n",
    "importlib": "import importlib\n\ndef squared_error_grad(x, w, t):\n    return x\n",
    "builtins": "def squared_error_grad(x, w, t):\n    return __builtins__['getattr'](torch, 'auto' + 'grad')\n",
    "module dict": "def squared_error_grad(x, w, t):\n    return __loader__\n",
    "type hints": "from typing import get_type_hints\n\ndef squared_error_grad(x, w, t):\n    return x\n",
    "type hints as attribute": "import typing\n\ndef squared_error_grad(x, w, t):\n    return typing.get_type_hints(x)\n",
    "main block with an else, run anyway": "__name__ = '__main__'\nif __name__ == '__main__':\n"
                                           "    getattr(torch, 'x' + 'y')\nelse:\n    pass\n\n"
                                           "def squared_error_grad(x, w, t):\n    return x\n",
    # a module reached through another module's attribute, an attribute looked up from a string
    "sys.modules through logging": "import logging\n\ndef squared_error_grad(x, w, t):\n"
                                   "    return logging.sys.modules['string']\n",
    "sys.modules imported in the function": "def squared_error_grad(x, w, t):\n    import sys\n"
                                            "    return sys.modules['torch']\n",
    "a formatter's get_field": "import logging\n\ndef squared_error_grad(x, w, t):\n"
                               "    return logging.StrFormatter().get_field('0.gr' + 'ad', (w,), {})[0]\n",
    "logging.config's resolver": "from logging import config\n\ndef squared_error_grad(x, w, t):\n"
                                 "    return config.BaseConfigurator({}).resolve('.'.join(['torch', 'autograd', 'grad']))\n",
    "a jaxtyping dimension that is an f-string": "from jaxtyping import Float\n\n_AXIS = '{exec(c, vars()) or \"\"}d'\n\n"
                                                 "def squared_error_grad(x: Float[torch.Tensor, _AXIS], w, t):\n"
                                                 "    return x\n",
    "a jaxtyping dimension that calls exec": "from jaxtyping import Float\n\n"
                                             "def squared_error_grad(x: Float[torch.Tensor, 'exec(c)'], w, t):\n"
                                             "    return x\n",
    "a jaxtyping shape made at run time": "from jaxtyping import Float\n\n_AXIS = 'd' + ''\n\n"
                                          "def squared_error_grad(x: Float[torch.Tensor, _AXIS], w, t):\n    return x\n",
    # data that runs as code when it is read back: a pickle's opcodes may call exec
    "torch.load": "def squared_error_grad(x, w, t):\n    torch.load(x, weights_only=False)\n    return x\n",
    "torch.load imported": "from torch import load as _load\n\ndef squared_error_grad(x, w, t):\n"
                           "    return _load(x)\n",
    "torch.load under a local alias": "def squared_error_grad(x, w, t):\n    T = torch\n    return T.load(x)\n",
    "numpy.load": "import numpy as np\n\ndef squared_error_grad(x, w, t):\n"
                  "    return np.load(x, allow_pickle=True)\n",
    # torch patched: a plain-looking call runs whatever was attached
    "torch patched": "def _by_hand(x, w, t):\n    return x\n\ntorch.Tensor.by_hand = _by_hand\n\n"
                     "def squared_error_grad(x, w, t):\n    return x.by_hand(w, t)\n",
    "torch patched through a local": "def squared_error_grad(x, w, t):\n    T = torch.Tensor\n"
                                     "    T.by_hand = len\n    return x\n",
    "a tensor's class patched": "def squared_error_grad(x, w, t):\n    type(x).by_hand = len\n    return x\n",
    "getattr of a name that is not a literal": "def squared_error_grad(x, w, t):\n"
                                                "    return [getattr(torch, n) for n in t]\n",
    "private attribute read by a match pattern": "def squared_error_grad(x, w, t):\n    match torch:\n"
                                                 "        case object(_C=c):\n            return c\n",
    "a class pattern by position": "class P:\n    __match_args__ = ('da' + 'ta',)\n\n"
                                   "def squared_error_grad(x, w, t):\n    match w:\n"
                                   "        case P(d):\n            return d\n    return x\n",
    "a builtin's name bound to a class with match names built at run time": (
        "def squared_error_grad(x, w, t):\n    set = type('F', (), {'__match_args__': ('gr' + 'ad',)})\n"
        "    match w:\n        case set(g):\n            return g\n    return x\n"),
    # a dataclass matched by position whose match names are not its fields as written
    "match names bound by an import in the class body": (
        "from dataclasses import dataclass\n\n_F = ('gr' + 'ad',)\n\n@dataclass\nclass D:\n    a: int\n"
        "    from ._names import F as __match_args__\n\n"
        "def squared_error_grad(x, w, t):\n    match w:\n        case D(g):\n            return g\n    return x\n"),
    "match names bound by a capture in the class body": (
        "from dataclasses import dataclass\n\n@dataclass\nclass D:\n    a: int\n    match ('gr' + 'ad',):\n"
        "        case __match_args__:\n            pass\n\n"
        "def squared_error_grad(x, w, t):\n    match w:\n        case D(g):\n            return g\n    return x\n"),
    "a parenthesized annotation that is no field": (
        "from dataclasses import dataclass\n\n@dataclass\nclass D:\n    (a): int\n    grad: object\n\n"
        "def squared_error_grad(x, w, t):\n    match w:\n        case D(g):\n            return g\n    return x\n"),
    "a flag's namespace given a function": "def _f(x):\n    return x\n\ntorch.backends.by_hand = _f\n\n"
                                          "def squared_error_grad(x, w, t):\n    return torch.backends.by_hand(x)\n",
    "getattr of a literal that runs unseen": "def squared_error_grad(x, w, t):\n    return getattr(torch, 'load')(x)\n",
    "getattr of a literal rebound in its comprehension": "def squared_error_grad(x, w, t):\n"
                                                          "    return [getattr(torch, n) for n in ('T',) for n in t]\n",
}
# code that never runs is not charged: a self-check kept in the file, a branch switched off
DEAD = {
    "main block": "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n\nif __name__ == '__main__':\n"
                  "    w = torch.ones(3, requires_grad=True)\n    (w * 2).sum().backward()\n",
    "constant branch": "def squared_error_grad(x, w, t):\n    if False:\n        w.backward()\n"
                       "    return x * (x @ w - t)\n",
    "after return": "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n    w.backward()\n",
    "unused function": "def check_with_autograd(x, w, t):\n    w = w.clone().requires_grad_(True)\n"
                       "    return w.grad\n\ndef squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n",
    # ... beside code that reads an attribute by name, or copies a function's name: neither sets a module's
    "main block beside a getattr of a literal": "_EPS = getattr(torch, 'finfo')(torch.float32).eps\n\n"
                                                "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n\n"
                                                "if __name__ == '__main__':\n    w = torch.ones(3, requires_grad=True)\n"
                                                "    (w * 2).sum().backward()\n",
    "main block beside a decorator": "def shaped(fn):\n    def inner(*a):\n        return fn(*a)\n"
                                     "    inner.__name__ = fn.__name__\n    return inner\n\n@shaped\n"
                                     "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n\n"
                                     "if __name__ == '__main__':\n    w = torch.ones(3, requires_grad=True)\n"
                                     "    (w * 2).sum().backward()\n",
    "TYPE_CHECKING": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from collections.abc import Sequence\n"
                     "    import torch.autograd\n\ndef squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n",
    "a local named as a self-check": "def check(x, w, t):\n    return w.grad\n\ndef squared_error_grad(x, w, t):\n"
                                     "    check = x * (x @ w - t)\n    return check\n",
    # autograd imported at the top for the main block's self-check only: the import runs nothing of it
    "an import the main block uses": "from torch.autograd import gradcheck\n\ndef squared_error_grad(x, w, t):\n"
                                     "    return x * (x @ w - t)\n\nif __name__ == '__main__':\n"
                                     "    gradcheck(squared_error_grad, (torch.ones(3, dtype=torch.float64),))\n",
    "torch.autograd imported for the main block": "import torch.autograd\n\ndef squared_error_grad(x, w, t):\n"
                                                  "    return x * (x @ w - t)\n\nif __name__ == '__main__':\n"
                                                  "    torch.autograd.gradcheck(squared_error_grad, ())\n",
}
# what correct students write: plain tools, their own classes and methods, checks of their own
PLAIN = {
    # a self-check's import of torch.func.grad, and a name grad local to a scope inside the function (round 35)
    **{f"a local grad of {where} beside torch.func's grad imported": (
        "from torch.func import grad\n\ndef squared_error_grad(x, w, t):\n" + body
        + "\nif __name__ == '__main__':\n    print(grad(lambda v: (v * v).sum())(x))\n") for where, body in [
            ("a nested def's parameter", "    def through(grad):\n        return grad * x\n    return through(x @ w - t)\n"),
            ("a lambda", "    through = lambda grad: grad * x\n    return through(x @ w - t)\n"),
            ("a nested def", "    def grad(a, b):\n        return a * b\n    return grad(x, x @ w - t)\n"),
            ("a comprehension", "    r = x @ w - t\n    return torch.stack([grad * r for grad in x])\n"),
        ]},
    # a self-check's import of autograd's grad (or a type-only one), a local of the same name: the local is its own
    "a local grad beside autograd's grad imported": "from torch.autograd import grad\n\n"
                                                   "def squared_error_grad(x, w, t):\n    grad = x * (x @ w - t)\n"
                                                   "    return grad\n\nif __name__ == '__main__':\n"
                                                   "    print(grad)\n",
    "a local grad beside a type-only import": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                              "    from torch.autograd import grad\n\n"
                                              "def squared_error_grad(x, w, t):\n    grad = x * (x @ w - t)\n"
                                              "    return grad\n",
    # a first draft of a helper left above the one that runs (a call at run time meets the last)
    "a helper's first draft": "def _g(x, w, t):\n    w = w.detach().requires_grad_()\n"
                              "    (0.5 * (x @ w - t) ** 2).backward()\n    return w.grad\n\n"
                              "def _g(x, w, t):\n    return x * (x @ w - t)\n\n"
                              "def squared_error_grad(x, w, t):\n    return _g(x, w, t)\n",
    # a sanity check that no graph was built: compared with None, never called (round 32)
    "a result's grad_fn asserted None": "def squared_error_grad(x, w, t):\n    g = x * (x @ w - t)\n"
                                        "    assert g.grad_fn is None and w.grad is None\n    return g\n",
    # a log line of text written out, its fields the function's own names (each field is read as code)
    "locals() handed to the format of text written out": (
        "def squared_error_grad(x, w, t):\n    n, d = x.shape if x.dim() == 2 else (1, x.shape[0])\n"
        "    _ = 'squared_error_grad n={n} d={d}'.format(**locals())\n    return x * (x @ w - t)\n"),
    # a distribution's cdf, log_prob or sample differentiates nothing (a truncated normal's bounds by hand)
    "a distribution's cdf at import": (
        "_PHI = float(torch.distributions.Normal(0.0, 1.0).cdf(torch.tensor(3.0)))\n"
        "_LOGP = torch.distributions.normal.Normal(0.0, 1.0).log_prob(torch.zeros(1))\n\n"
        "def squared_error_grad(x, w, t):\n    return x * (x @ w - t) * _PHI\n"),
    # torch.autograd.Function's API written by hand: `ctx` is a parameter, its save_for_backward the module's own
    "a context object of one's own, in autograd.Function's style": (
        "class Context:\n    def __init__(self):\n        self.saved = ()\n\n"
        "    def save_for_backward(self, *tensors):\n        self.saved = tensors\n\n"
        "class Square:\n    @staticmethod\n    def forward(ctx, x, w):\n        ctx.save_for_backward(x, w)\n"
        "        return x @ w\n\n    @staticmethod\n    def backward(ctx, grad):\n        x, w = ctx.saved\n"
        "        return grad * x\n\n"
        "def squared_error_grad(x, w, t):\n    ctx = Context()\n    r = Square.forward(ctx, x, w) - t\n"
        "    return Square.backward(ctx, r)\n"),
    "strings that are messages, equations and names": "import warnings\n\n_EQ = 'i,i->'\n_DEVICE = 'cpu'\n\n"
                                                      "def squared_error_grad(x, w, t):\n"
                                                      "    '''d/dw of 0.5 * (x . w - t)**2, by the chain rule.'''\n"
                                                      "    if x.ndim != 1:\n"
                                                      "        raise ValueError(f'x must be 1-D, got {x.ndim}-D')\n"
                                                      "    warnings.warn('x.grad is not used here: no autograd')\n"
                                                      "    return x * (torch.einsum(_EQ, x, w) - t)\n",
    "messages that quote code but run nothing": "import warnings\n\ndef squared_error_grad(x, w, t):\n"
                                                 "    if x.ndim != 1:\n"
                                                 "        warnings.warn('w.requires_grad is set; it is ignored')\n"
                                                 "        raise ValueError('x.grad is None')\n"
                                                 "    return x * (x @ w - t)\n",
    "docstrings and constants that quote autograd": "_CHECK = 'w.requires_grad_(); loss.backward(); w.grad'\n\n"
                                                     "def squared_error_grad(x, w, t):\n"
                                                     "    '''Check: torch.autograd.grad(loss, w)[0]'''\n"
                                                     "    return x * (x @ w - t)\n",
    "an Annotated alias whose metadata is a call": "import typing\n\nclass Unit:\n    pass\n\n"
                                                   "Vec = typing.Annotated[torch.Tensor, Unit()]\n\n"
                                                   "def squared_error_grad(x: Vec, w: Vec, t) -> Vec:\n"
                                                   "    return x * (x @ w - t)\n",
    "inspect's signatures, kind tests and doc cleaning": "import inspect\n\n"
                                                        "_HELP = inspect.cleandoc('''  x: [d]\n  w: [d]''')\n\n"
                                                        "def squared_error_grad(x, w, t):\n"
                                                        "    p = inspect.signature(squared_error_grad).parameters\n"
                                                        "    assert p['x'].default is inspect.Parameter.empty\n"
                                                        "    assert not inspect.isgenerator(x), _HELP\n"
                                                        "    assert inspect.getfullargspec(squared_error_grad).args\n"
                                                        "    return x * (x @ w - t)\n",
    "a comment written as a string, with code in it": "def squared_error_grad(x, w, t):\n    r = x @ w - t\n"
                                                       "    '''checked against: w.requires_grad_(); loss.backward()'''\n"
                                                       "    return x * r\n",
    "annotations naming types, aliases and a named tuple": "import typing\nfrom collections import namedtuple\n\n"
                                                           "Vec = torch.Tensor\nT = typing.TypeVar('T')\n"
                                                           "Pair = namedtuple('Pair', 'a b')\nMaybe = Vec | None\n\n"
                                                           "def squared_error_grad(x: Vec, w: Maybe, t: T) -> Pair:\n"
                                                           "    return x * (x @ w - t)\n",
    "a symbolic jaxtyping dimension": "from jaxtyping import Float\n\n"
                                      "def squared_error_grad(x: Float[torch.Tensor, 'n d-1 *b #c _ dim=4'], w, t):\n"
                                      "    return x * (x @ w - t)\n",
    "a doctest run from the self-check": "from doctest import testmod\n\n"
                                         "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n\n"
                                         "if __name__ == '__main__':\n    testmod()\n",
    "everyday standard library modules": "import os, sys, re, time, random, json, copy, doctest\n\n"
                                         "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n",
    "a pattern compiled at import": "import re\n\n_WORD = re.compile(r'\\w+')\n\n"
                                    "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n",
    "a self-check against autograd beside a getattr of a name read at run time":
        "def _shape(t, attr='shape'):\n    return tuple(getattr(t, attr))\n\n"
        "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n\n"
        "if __name__ == '__main__':\n    import sys\n    w = torch.ones(3, requires_grad=True)\n"
        "    (w * 2).sum().backward()\n    sys.exit(0)\n",
    "standard library": "import functools, itertools, operator, warnings, logging\nfrom collections import namedtuple\n"
                        "from functools import reduce\n\ndef squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n",
    "checks and annotations": "import torch.nn as nn\nfrom torch.nn import functional as F\nfrom torch.testing import assert_close\n"
                              "from jaxtyping import Float, jaxtyped\nfrom typeguard import typechecked\n\n"
                              "@jaxtyped(typechecker=typechecked)\ndef squared_error_grad(x: Float[torch.Tensor, 'd'], w, t):\n"
                              "    return x * (x @ w - t)\n",
    "a decorator of its own": "import functools\n\ndef shaped(fn):\n    @functools.wraps(fn)\n    def inner(*a):\n"
                              "        return fn(*a)\n    inner.__name__ = fn.__name__\n    return inner\n\n@shaped\n"
                              "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n",
    "classes of its own": "class ShapeError(ValueError):\n    def __init__(self, m):\n        super().__init__(m)\n\n"
                          "class SquaredError:\n    def __init__(self, w):\n        self._w = w\n\n    @staticmethod\n"
                          "    def backward(x, w, t):\n        return x * (x @ w - t)\n\n"
                          "def squared_error_grad(x, w, t):\n    if x.ndim != 1:\n        raise ShapeError('x')\n"
                          "    return SquaredError.backward(x, SquaredError(w)._w, t)\n",
    "a record of its own": "from dataclasses import dataclass\n\n@dataclass\nclass Grads:\n    grad: torch.Tensor\n\n"
                           "def squared_error_grad(x, w, t):\n    return Grads(grad=x * (x @ w - t)).grad\n",
    "no autograd, said so": "@torch.inference_mode()\ndef squared_error_grad(x, w, t):\n"
                            "    out = torch.zeros_like(x, requires_grad=False)\n    return out + x * (x @ w - t)\n",
    # the same switches, turned off, through torch.autograd or set_grad_enabled(False)
    "autograd turned off": "@torch.autograd.no_grad()\ndef squared_error_grad(x, w, t):\n"
                           "    with torch.set_grad_enabled(False), torch.autograd.grad_mode.inference_mode():\n"
                           "        return x * (x @ w - t)\n",
    # a tiny op that knows its backward rule, held in a local
    "an instance of its own class": "class MatMul:\n    def __init__(self, x, w):\n        self.x, self.w = x, w\n\n"
                                    "    def backward(self, g):\n        return g * self.x\n\n"
                                    "def squared_error_grad(x, w, t):\n    op = MatMul(x, w)\n"
                                    "    return op.backward(x @ w - t)\n",
    # `self.grad` of its own plain class is its own attribute, not a tensor's
    "its own class's self.grad": "class SquaredError:\n    def __init__(self, x, w, t):\n"
                                 "        self.x, self.w, self.t = x, w, t\n        self.grad = None\n\n"
                                 "    def compute(self):\n        self.grad = (self.x @ self.w - self.t) * self.x\n"
                                 "        return self.grad\n\n"
                                 "def squared_error_grad(x, w, t):\n    return SquaredError(x, w, t).compute()\n",
    "its own base class's self": "import abc\n\nclass Op(abc.ABC):\n    @abc.abstractmethod\n    def backward(self, g):\n"
                                 "        ...\n\nclass Scale(Op):\n    def __init__(self, x):\n        self.x = x\n\n"
                                 "    @property\n    def grad_scale(self):\n        return self.x\n\n"
                                 "    def backward(self, g):\n        self.grad = g * self.grad_scale\n        return self.grad\n\n"
                                 "def squared_error_grad(x, w, t):\n    return Scale(x).backward(x @ w - t)\n",
    # reading the flag runs nothing of autograd
    "reads requires_grad": "def _plain(t):\n    return t.detach() if t.requires_grad else t\n\n"
                           "def squared_error_grad(x, w, t):\n    x, w = _plain(x), _plain(w)\n    return x * (x @ w - t)\n",
    # keywords that name a parameter of the module's own function, or a key: no autograd in them
    "keyword of its own function": "def _chain(x, grad):\n    return x * grad\n\n"
                                   "def squared_error_grad(x, w, t):\n    return _chain(x, grad=x @ w - t)\n",
    "keyword of dict": "def squared_error_grad(x, w, t):\n    parts = dict(grad=x @ w - t)\n    return x * parts['grad']\n",
    "no_grad imported by name": "from torch.autograd import no_grad\n\n@no_grad()\n"
                                "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n",
    "vmap over a rule by hand": "def _one(x, w, t):\n    return x * (x @ w - t)\n\n"
                                "def squared_error_grad(x, w, t):\n    return torch.vmap(_one, in_dims=(None, None, None))(x, w, t)\n",
    "torch's flags set at import": "torch.backends.cudnn.benchmark = True\n\n"
                                   "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n",
    "vmap read off torch.func": "def _one(x, w, t):\n    return x * (x @ w - t)\n\n"
                                "def squared_error_grad(x, w, t):\n"
                                "    return torch.func.vmap(_one, in_dims=(None, None, None))(x, w, t)\n",
    "vmap imported from torch.func": "from torch.func import vmap\n\ndef _one(x, w, t):\n    return x * (x @ w - t)\n\n"
                                     "def squared_error_grad(x, w, t):\n    return vmap(_one, in_dims=(None, None, None))(x, w, t)\n",
    "a record its own helper returns": "from dataclasses import dataclass\n\n@dataclass(frozen=True)\nclass VG:\n"
                                       "    value: torch.Tensor\n    grad: torch.Tensor\n\n"
                                       "def _vg(x, w, t):\n    r = x @ w - t\n    return VG(value=0.5 * r * r, grad=r * x)\n\n"
                                       "def squared_error_grad(x, w, t):\n    out = _vg(x, w, t)\n"
                                       "    return _vg(x, w, t).grad + 0 * out.grad\n",
    # patterns that read no attribute of autograd's
    "match on plain values": "def squared_error_grad(x, w, t):\n    match x.dim(), w.shape:\n"
                             "        case (1, (int(n),)) if n > 0:\n            return x * (x @ w - t)\n"
                             "        case _:\n            raise ValueError('1-D x and w')\n",
    "match by position on its own dataclass": (
        "from dataclasses import dataclass\n\n@dataclass(frozen=True)\nclass Dims:\n    n: int\n    d: int\n\n"
        "def squared_error_grad(x, w, t):\n    match Dims(*x.shape, *w.shape):\n        case Dims(n, d) if n == d:\n"
        "            return x * (x @ w - t)\n    raise ValueError('1-D x and w of one length')\n"),
    # getattr that can only name one of a few plain attributes
    "getattr of literal names": "FLOAT8 = tuple(getattr(torch, n) for n in ('float8_e4m3fn', 'float8_e5m2') if hasattr(torch, n))\n"
                                "EPS = getattr(torch, 'finfo')\n\n"
                                "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n",
}


def findings(text, helpers=None):
    sources = {"gradients": HEAD + text + PLAIN_LINEAR, **(helpers or {})}
    return audit_no_autograd(sources, "gradients", ("squared_error_grad",))


def findings_of(text, helpers=None):
    """The audit of ``text`` as the whole of gradients.py."""
    return audit_no_autograd({"gradients": text, **(helpers or {})}, "gradients", ("squared_error_grad",))


@pytest.mark.parametrize("name", sorted(AUTOGRAD))
def test_every_way_to_autograd_is_read_as_autograd(name):
    found = findings(AUTOGRAD[name])
    assert found and found[0].autograd, found


@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_ways_around_reading_are_read_as_hiding(name):
    found = findings(HIDDEN[name])
    assert found and not any(f.autograd for f in found), found


@pytest.mark.parametrize("name", sorted(DEAD))
def test_code_that_never_runs_is_not_charged(name):
    assert findings(DEAD[name]) == []


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_what_correct_students_write_is_not_charged(name):
    assert findings(PLAIN[name]) == []


def test_another_module_only_naming_what_runs_text_is_not_charged():
    """roofline.py, imported by an __init__ that imports every module, names timeit.Timer in an annotation and
    a default and holds the lecture's loop as a string: naming runs nothing, and a string is no code."""
    roofline = {"roofline": "import timeit\n\nLOOP = ['loss.backward()', 'optimizer.step()']\n\n"
                            "def _best(timer: timeit.Timer, make=timeit.Timer):\n    return timer.timeit(1)\n",
                "__init__": "from . import roofline, gradients\n"}
    text = "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n"
    assert findings(text, roofline) == []
    # what reaches a module's namespace stays charged wherever it is named (a store through it replaces code)
    setter = {"_p": "import sys\n_M = sys.modules\n", "__init__": "from . import _p, gradients\n"}
    assert [f.what for f in findings(text, setter)] == ["uses sys.modules"]


def test_honest_import_time_code_of_other_modules_is_not_charged():
    """What other modules, imported by an __init__ that imports everything, honestly run at import: a table
    keyed by tuples of strings, a Literal of devices, jaxtyping's types in a table, a class body aliasing
    its own dunders, a docstring quoting f"{w.grad}", an __all__ built from dir()."""
    others = {
        "__init__": "from . import roofline, training, named, memory, model, gradients\n"
                    "__all__ = [n for n in dir() if not n.startswith('_')]\n",
        "roofline": "SHEET = {('A100', '80GB'): 2.039e12}\nHBM = {'A100': SHEET['A100', '80GB']}\n",
        "training": "from typing import Literal, Union\nimport torch\n\n"
                    "Device = Union[str, torch.device, Literal['cpu', 'cuda:0']]\n",
        "named": "import torch\nfrom jaxtyping import Float32, Float64\n\n"
                 "_KIND = {torch.float32: Float32, torch.float64: Float64}\n",
        "memory": "class Ledger:\n    '''print(f'{w.grad}'), as the lecture does'''\n\n"
                  "    def __repr__(self):\n        return 'Ledger'\n\n    __str__ = __repr__\n",
        "model": "import argparse\nfrom os.path import *\nfrom torch.autograd import Function\n\n"
                 "PARSER = argparse.ArgumentParser(description=__doc__)\n\nclass _Scale(Function):\n    pass\n",
    }
    text = ("import inspect\n\ndef squared_error_grad(x, w, t):\n    '''Autograd would print('{0.grad}'.format(w)).'''\n"
            "    assert inspect.signature(squared_error_grad)\n    return x * (x @ w - t)\n")
    assert findings(text, others) == []


def test_the_audited_module_s_names_read_alone_are_not_charged():
    """gradients.py building its own __all__ from dir(), asking a name ``in`` it or sorting it: names come out,
    no object, whatever ``dir`` is bound to (set from another module to ``vars``, it still hands out keys). A
    namespace whose objects come out (``.get``, ``dict(...)``, its ``repr``) or that is kept stays charged."""
    text = "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n\n"
    for names in ("__all__ = [n for n in dir() if not n.startswith('_')]\n", "HAS = 'torch' in dir()\n",
                  "NAMES = sorted(dir())\n", "for _n in dir():\n    pass\n", "_KEYS = list(globals().keys())\n"):
        assert findings_of(text + names) == [], names
    for objects in ("_G = globals().get('x')\n", "_NS = dir()\n", "_ALL = dict(vars())\n", "print(globals())\n",
                    "_V = list(globals().values())\n"):
        assert findings_of(text + objects), objects


def test_autograd_in_what_a_decorator_is_handed_is_charged():
    """A decorator binding what it is handed as the module's `max` (which a reading takes for the builtin), or
    putting it in a table: the function may run from any call, and is read (it scored test_no_autograd 2/2,
    the formula used only where the watch was seen). One that only wraps it, never called, is not read."""
    uses = ("    with torch.enable_grad():\n        leaf = w.detach().requires_grad_()\n"
            "        return torch.autograd.grad(0.5 * (x @ leaf - t) ** 2, leaf)[0]\n")
    for text in ("import torch\n\ndef squared_error_grad(x, w, t):\n    return max(x, w, t)\n\n"
                 "def _as_max(f):\n    global max\n    max = f\n    return f\n\n@_as_max\ndef _g(x, w, t):\n" + uses,
                 "import torch\n_T = {}\n\ndef squared_error_grad(x, w, t):\n    return _T['g'](x, w, t)\n\n"
                 "def _keep(f):\n    _T['g'] = f\n    return f\n\n@_keep\ndef _g(x, w, t):\n" + uses):
        assert any(f.autograd for f in findings_of(text)), text
    wrapped = ("import functools\nimport torch\n\ndef squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n\n"
               "@functools.lru_cache(maxsize=None)\ndef _check(x, w, t):\n" + uses)
    assert findings_of(wrapped) == []


def test_honest_introspection_is_not_charged():
    """A class's own __repr__ showing vars(self) or self.__dict__ (what it stored on itself), a version guard
    (torch.__version__, importlib.metadata.version, importlib.util.find_spec) and a dataclass's own fields table
    read nothing a reading cannot name: each cost test_no_autograd (red team). importlib.import_module does."""
    grads = ("class LinearGrads:\n    def __init__(self, gx, gw):\n        self.gx, self.gw = gx, gw\n\n"
             "    def __repr__(self):\n        return f'{type(self).__name__}({vars(self)}, {self.__dict__}, {dir(self)})'\n\n"
             "def squared_error_grad(x, w, t):\n    return LinearGrads(x, w).gx * (x @ w - t)\n")
    for head in ("import torch\nTORCH_2 = int(torch.__version__.split('.')[0]) >= 2\n",
                 "import importlib.metadata\nV = importlib.metadata.version('torch')\n",
                 "from importlib.metadata import version, PackageNotFoundError\nV = version('torch')\n",
                 "import importlib.util\nHAS = importlib.util.find_spec('triton') is not None\n",
                 "import torch\nfrom packaging.version import Version\nNEW = Version(torch.__version__) >= Version('2')\n",
                 "import dataclasses\n@dataclasses.dataclass\nclass _D:\n    a: int = 0\nN = list(_D.__dataclass_fields__)\n"):
        assert findings_of(head + grads) == [], head
    assert findings_of("import importlib\nM = importlib.import_module('torch.autograd')\n" + grads)


def test_a_helper_module_s_own_imports_are_not_charged():
    """gradients.py taking a helper from flops.py runs flops.py's imports, which are not its business."""
    flops = {"flops": "from torch.utils._python_dispatch import TorchDispatchMode\nimport re\n\n"
                      "def matmul_flops(m, k, n):\n    return 2 * m * k * n\n"}
    text = "from .flops import matmul_flops\n\ndef squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n"
    assert findings(text, flops) == []


def test_the_function_brought_in_by_a_star_import_or_rebound_by_the_init_is_read():
    auto = {"_impl": "import torch\n\ndef squared_error_grad(x, w, t):\n    w = w.detach().requires_grad_(True)\n"
                     "    ((x @ w - t) ** 2).sum().backward()\n    return w.grad\n"}
    for star in ("from ._impl import *\n", "from assignment._impl import *\n"):
        assert any(f.autograd and "_impl.py" in f.where for f in findings_of(star + PLAIN_LINEAR, auto)), star
    init = {"__init__": "from . import gradients, _impl\ngradients.squared_error_grad = _impl.squared_error_grad\n", **auto}
    plain = "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n"
    assert any(f.autograd and "_impl.py" in f.where for f in findings(plain, init))


def test_a_gradient_function_replaced_from_another_module_is_hiding():
    """A module of the submission that assigns into gradients.py runs that module's function where the
    reading saw gradients.py's own (graded alone, only the code gradients.py and the ``__init__`` import
    runs: this is what is left of replacing it from elsewhere)."""
    other = {"strides": "from . import gradients as _g\n\ndef _quick(x, w, t):\n    return x\n\n"
                        "_g.squared_error_grad = _quick\n",
             "__init__": "from . import strides\n"}
    plain = "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n"
    found = findings(plain, other)
    assert any("replaces _g.squared_error_grad" in f.what and f.where == "strides.py:6" for f in found), found


def test_a_gradient_s_code_swapped_from_the_init_is_hiding():
    """The ``__init__`` reaching both functions through a Formatter's fields (no name the reading follows) and
    copying one's ``__code__`` onto the other with ``update_wrapper``: no store, yet another function's code
    runs under the name the reading read. The name written as a string, and the copy told what to copy, are
    each charged; a plain ``functools.wraps(fn)`` decorator is not (see ``PLAIN``)."""
    init = ("import functools\nimport string\nfrom . import _autodiff, gradients\n\n"
            "class _Fields(string.Formatter):\n    got = []\n\n    def format_field(self, value, spec):\n"
            "        self.got.append(value)\n        return ''\n\n"
            "_f = _Fields()\n_f.format('{0.squared_error_grad}{1.squared_error_grad}', gradients, _autodiff)\n")
    autodiff = "import torch\n\ndef squared_error_grad(x, w, t):\n    return torch.autograd.grad(x, w)\n"
    plain = "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n"
    for swap, charge in [("functools.update_wrapper(_f.got[0], _f.got[1], assigned=('__code__',), updated=())\n",
                          "replaces what '__code__' names"),
                         ("_names = ('__co' + 'de__',)\nfunctools.update_wrapper(_f.got[0], _f.got[1], _names, ())\n",
                          "replaces the attributes functools.update_wrapper is told to copy")]:
        found = findings(plain, {"__init__": init + swap, "_autodiff": autodiff})
        assert any(charge in f.what and f.where.startswith("__init__.py") for f in found), found
        assert any(f.what == "uses string.Formatter" for f in found), found


def test_a_constant_set_on_another_module_is_not_charged_but_a_module_that_cannot_be_read_is():
    """``named.DEFAULT_HEADS = 8`` in the ``__init__`` replaces no code; a module the reading cannot parse
    (where Python could still run it) is read as hiding, not as nothing."""
    plain = "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n"
    assert findings(plain, {"__init__": "from . import named\nnamed.DEFAULT_HEADS = 8\n", "named": "DEFAULT_HEADS = 4\n"}) == []
    found = findings("from . import _helper\n" + plain, {"_helper": "\ufeffimport torch\n"})
    assert [(f.where, f.what) for f in found] == [("_helper.py", "could not be read (it does not parse)")]


def test_names_the_package_hands_out_unread_are_hiding():
    """A module ``__getattr__`` in the ``__init__`` makes any name; ``from . import *`` brings the modules
    its ``__all__`` names: neither is read, so each is a way around the reading."""
    plain = "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n"
    through_package = "from . import _chain\n\ndef squared_error_grad(x, w, t):\n    return _chain(x, w, t)\n"
    getattr_init = {"__init__": "def __getattr__(name):\n    import torch\n    return torch.autograd.grad\n"}
    star_init = {"__init__": "__all__ = ['extras']\nfrom . import *\n",
                 "extras": "import torch\nfrom . import gradients\ngradients.squared_error_grad = torch.autograd.grad\n"}
    for text, init in ((through_package, getattr_init), (plain, star_init)):
        found = findings(text, init)
        assert any("__init__.py" in f.where and not f.autograd for f in found), found
    # a package __getattr__ answers only names taken from the package: with none taken, it hands out nothing
    # (a lazy import of the modules, PEP 562's example)
    lazy = {"__init__": "import importlib\n\ndef __getattr__(name):\n"
                        "    return importlib.import_module('.' + name, __name__)\n"}
    assert not any("__init__.py" in f.where for f in findings(plain, lazy))


def test_annotations_that_name_a_parameter_are_not_charged():
    """``weight: nn.Parameter`` or ``-> list[nn.Parameter]`` in a helper module looks a class up; making one
    (``nn.Parameter(t)``) is still autograd."""
    model = {"model": "from __future__ import annotations\nfrom torch import nn\n\nclass Net(nn.Module):\n"
                      "    weight: nn.Parameter\n\n    def params(self) -> list[nn.Parameter]:\n        return []\n\n"
                      "def width(x: 'nn.Parameter') -> int:\n    return x.shape[0]\n",
             "__init__": "from . import gradients, model\n"}
    text = "from .model import width\n\ndef squared_error_grad(x, w, t):\n    return x * (x @ w - t) * width(w) / width(w)\n"
    assert findings(text, model) == []
    made = {**model, "model": model["model"] + "\nW = nn.Parameter(None)\n"}
    assert [f.what for f in findings(text, made)] == ["uses .Parameter"]


def test_the_package_init_is_read():
    """It runs before any module, and ``from . import name`` takes the name from it."""
    for text in ("from . import tape\n\ndef squared_error_grad(x, w, t):\n    return tape(w)\n",
                 "import assignment\n\ndef squared_error_grad(x, w, t):\n    return assignment.tape(w)\n",
                 "from assignment import tape as t\n\ndef squared_error_grad(x, w, t):\n    return t(w)\n"):
        init = {"__init__": "import torch\n\ndef tape(w):\n    return w.grad\n\ndef other():\n    return 1\n"}
        assert any(f.autograd and "__init__.py" in f.where for f in findings(text, init)), text
    at_import = {"__init__": "import torch\n\n_engine = torch.autograd.grad\n"}
    plain = "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n"
    assert any(f.autograd and "__init__.py" in f.where for f in findings(plain, at_import))
    assert findings(plain, {"__init__": ""}) == []
    unused = {"__init__": "import torch\n\ndef unused(w):\n    return w.grad\n"}
    assert findings(plain, unused) == []  # a function of it that no gradient runs


def test_an_init_that_imports_every_module_charges_nothing_they_do_not_run():
    """Other modules' own imports (model.py's Parameter, training.py's optimizers) are not the gradients'
    business; what the __init__ calls as it runs is."""
    others = {"model": "import torch.nn as nn\nfrom torch.nn import Parameter\n\nclass Linear(nn.Module):\n"
                       "    def __init__(self, d, f):\n        super().__init__()\n"
                       "        self.weight = Parameter(torch.zeros(d, f))\n",
              "training": "import torch.optim\n\ndef train(model):\n    model(1).sum().backward()\n"}
    init = "from . import gradients, model, training\nfrom .model import Linear\n__all__ = ['Linear']\n"
    plain = "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n"
    assert findings(plain, {"__init__": init, **others}) == []
    patched = {"__init__": init + "training.train(None)\n", **others}
    assert any(f.autograd and "training.py" in f.where for f in findings(plain, patched))


def test_a_helper_module_that_uses_autograd_is_followed():
    helpers = {"_util": "import torch\n\ndef grad_of(w):\n    return w.grad\n\ndef other():\n    return 1\n"}
    for style, call in (("from ._util import grad_of", "grad_of"), ("from assignment._util import grad_of", "grad_of"),
                        ("from _util import grad_of", "grad_of"), ("from . import _util", "_util.grad_of"),
                        ("import assignment._util as u", "u.grad_of"), ("from ._util import *", "grad_of"),
                        ("from assignment._util import *", "grad_of")):
        text = f"{style}\n\ndef squared_error_grad(x, w, t):\n    return {call}(w)\n"
        assert any(f.autograd and "_util.py" in f.where for f in findings(text, helpers)), style
    clean = {"_util": "import torch\n\ndef outer(x, g):\n    return x * g\n\ndef unused(w):\n    return w.grad\n"}
    text = "from ._util import outer\n\ndef squared_error_grad(x, w, t):\n    return outer(x, x @ w - t)\n"
    assert findings(text, clean) == []  # the helper module's other function is never run
    hidden = {"_util": "import torch\n\nif True:\n    def grad_of(w):\n        return w.grad\n"}
    text = "from ._util import *\n\ndef squared_error_grad(x, w, t):\n    return grad_of(w)\n"
    assert any(f.autograd for f in findings(text, hidden))  # defined where a star import's reading stops
    text = "from ._util import *\n\ndef squared_error_grad(x, w, t):\n    return outer(x, x @ w - t)\n"
    assert findings(text, clean) == []


@pytest.mark.parametrize("read", [
    "def squared_error_grad(x, w, t):\n    grad = None\n\n    def run():\n        global grad\n"
    "        return grad(0.5 * (x @ w - t) ** 2, w)[0]\n    return run()\n",
    "def squared_error_grad(x, w, t):\n    grad = None\n\n    class K:\n        if False:\n            grad = None\n"
    "        g = grad\n    return K.g(0.5 * (x @ w - t) ** 2, w)[0]\n",
])
def test_autograd_read_through_python_s_scopes_is_charged(read):
    """Round 35: Python reads grad from the module here (a nested def's global; a class body that binds the name
    reads it from the class, then the module), not from the function's local: the module's import is used."""
    assert any(f.autograd for f in findings("from torch.autograd import grad\n\n" + read)), read


@pytest.mark.parametrize("where", ["in the class body", "under an if in the class body"])
def test_autograd_imported_in_a_helper_class_s_body_is_charged(where):
    """``class _Tools: from torch.func import jacfwd as J`` in a helper module, read by gradients.py as ``_Tools.J``:
    the import binds an attribute of the class, which the helper module itself never mentions (its other imports,
    unused, are its own business): charged as a use."""
    body = "    from torch.func import jacfwd as J\n" if where == "in the class body" else \
        "    if True:\n        from torch.func import jacfwd as J\n"
    helpers = {"_helpers": "class _Tools:\n" + body}
    text = ("import torch\nfrom ._helpers import _Tools\n\ndef squared_error_grad(x, w, t):\n"
            "    return _Tools.J(lambda v: 0.5 * (x @ v - t) ** 2)(w)\n")
    assert any(f.autograd and "_helpers.py" in f.where for f in findings(text, helpers)), where


# a module of the submission's own handed on as a value, then a function of it called through that value: the
# helper module ``_ns`` (gradients.py imports ``get``, ``NS`` or ``L`` from it), and what gradients.py calls
HANDED_ON = {
    "a function returning it": ("from . import _util\n\ndef get():\n    return _util\n", "get", "get()"),
    "a method returning it": ("from . import _util\n\nclass NS:\n    @staticmethod\n    def get():\n"
                              "        return _util\n", "NS", "NS.get()"),
    "a property returning it": ("from . import _util\n\nclass NS:\n    @property\n    def m(self):\n"
                                "        return _util\n", "NS", "NS().m"),
    "a class attribute": ("from . import _util\n\nclass NS:\n    m = _util\n", "NS", "NS.m"),
    "a parameter's default": ("from . import _util\n\ndef get(m=_util):\n    return m\n", "get", "get()"),
    "an item of a list": ("from . import _util\n\nL = []\nL.append(_util)\n", "L", "L[0]"),
    "a function's attribute": ("from . import _util\n\ndef get():\n    pass\n\nget.m = _util\n", "get", "get.m"),
    "imported in a class body": ("class NS:\n    from . import _util as m\n", "NS", "NS.m"),
    "imported in a function": ("def get():\n    from . import _util as m\n    return [m]\n", "get", "get()[0]"),
    "a package's attribute": ("import assignment\n\ndef get():\n    return assignment._util\n", "get", "get()"),
}


@pytest.mark.parametrize("name", sorted(HANDED_ON))
def test_a_module_of_its_own_handed_on_as_a_value_is_read_whole(name):
    helper, taken, value = HANDED_ON[name]
    util = "import torch\n\ndef grad_of(w):\n    return w.grad\n"
    text = f"from ._ns import {taken}\n\ndef squared_error_grad(x, w, t):\n    return {value}.grad_of(w)\n"
    assert any(f.autograd and "_util.py" in f.where for f in findings(text, {"_ns": helper, "_util": util})), name


def test_a_registry_of_its_modules_at_the_package_s_top_is_followed_only_where_read():
    """``MODULES = {"flops": flops, "gradients": gradients}`` in ``__init__`` (a self-check's registry): flops.py is
    read only if something reads MODULES, not whole for being put there (its TorchDispatchMode cost Part 7)."""
    flops = "from torch.utils._python_dispatch import TorchDispatchMode\n\nclass _M(TorchDispatchMode):\n    pass\n"
    init = "from . import flops, gradients\n\nMODULES = {'flops': flops, 'gradients': gradients}\n"
    assert findings("", {"__init__": init, "flops": flops}) == []
    reads = "from . import MODULES\n\ndef _hook(w):\n    return MODULES['flops']._M\n"
    assert findings(reads, {"__init__": init, "flops": flops}), "the registry read, then nothing of flops.py read"


def test_a_function_whose_body_reads_an_attribute_named_as_a_module_holds_no_module():
    """``return counter.flops`` in a helper module's function: ``counter`` is no module, and flops.py (a module's
    name) is not read whole for it (with whatever flops.py runs nowhere near the gradients)."""
    helper = "class _C:\n    flops = 1.0\n\ndef scale(x):\n    counter = _C()\n    return x * counter.flops\n"
    flops = "import torch\n\ndef _checked(w):\n    return w.grad\n"
    text = "from ._ns import scale\n\ndef squared_error_grad(x, w, t):\n    return scale(x * (x @ w - t))\n"
    assert findings(text, {"_ns": helper, "flops": flops}) == []


def test_the_reference_and_the_stubs_read_clean():
    for folder in ("reference", "assignment"):
        sources = {"gradients": (ROOT / folder / "gradients.py").read_text()}
        assert audit_no_autograd(sources, "gradients", ("squared_error_grad", "linear_backward")) == [], folder


def test_an_own_module_s_function_is_read_not_charged_for_its_name():
    """``ops.dot_backward`` of the submission's own module is that module's function, followed and read."""
    ops = {"_ops": "import torch\n\ndef dot_backward(x, w, t):\n    return (torch.dot(x, w) - t) * x\n"}
    for style, name in (("from assignment import _ops as ops", "ops"), ("from . import _ops", "_ops"),
                        ("import assignment._ops as ops", "ops"), ("import assignment._ops", "assignment._ops")):
        text = f"{style}\n\ndef squared_error_grad(x, w, t):\n    return {name}.dot_backward(x, w, t)\n"
        assert findings(text, ops) == [], style
    auto = {"_ops": "import torch\n\ndef dot_backward(x, w, t):\n    return w.grad\n"}
    text = "from . import _ops\n\ndef squared_error_grad(x, w, t):\n    return _ops.dot_backward(x, w, t)\n"
    assert any(f.autograd and "_ops.py" in f.where for f in findings(text, auto))
    # a name that is not the module where it is used: a parameter, or the package's own binding of it
    shadowed = "from . import _ops\n\ndef _h(_ops):\n    return _ops.backward()\n\n" \
               "def squared_error_grad(x, w, t):\n    return _h(w)\n"
    assert any(f.autograd and f.what == "uses .backward" for f in findings(shadowed, ops))
    unbound = "from . import _ops\n\ndef squared_error_grad(x, w, t):\n    return _ops.backward(w)\n"
    assert any(f.autograd and f.what == "uses .backward" for f in findings(unbound, ops))  # not a name _ops binds
    rebound = {**ops, "__init__": "import torch\n_ops = torch.Tensor\n"}
    assert any(f.autograd and f.what == "uses .backward" for f in findings(text.replace("dot_backward", "backward"), rebound))


def test_a_module_s_methods_do_not_run_when_it_is_imported():
    """An __init__ that imports every module: what importing memory.py runs is its statements, class
    bodies, decorators and defaults; a class it names only in annotations runs none of its methods."""
    memory = {"memory": "from dataclasses import dataclass, fields\n\n@dataclass\nclass Ledger:\n    params: int = 0\n\n"
                        "    @property\n    def total(self):\n        return sum(getattr(self, f.name) for f in fields(self))\n\n"
                        "def ledger(n: int) -> Ledger:\n    return Ledger(n)\n\n"
                        "def both(n: int) -> tuple[Ledger, Ledger] | None:\n    return None\n"}
    init = {"__init__": "from . import gradients, memory\n"}
    plain = "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n"
    assert findings(plain, {**init, **memory}) == []
    # what its statements do run is read, and so is every method of what it hands to others
    patched = {"memory": "import torch\n\ntorch.Tensor.by_hand = lambda self: self.grad\n"}
    assert any(f.autograd and "memory.py" in f.where for f in findings(plain, {**init, **patched}))
    handed = {"memory": "import logging\n\nclass Quiet:\n    def filter(self, record):\n"
                        "        return getattr(record, 'x' + 'y')\n\nlogging.getLogger().addFilter(Quiet())\n"}
    named = {"memory": "class Box:\n    def __class_getitem__(cls, item):\n        return getattr(cls, 'x' + 'y')\n\n"
                       "def unused(b: Box[int]):\n    pass\n"}
    assert any("memory.py" in f.where for f in findings(plain, {**init, **named}))
    assert any("memory.py" in f.where for f in findings(plain, {**init, **handed}))


MIXIN = ("import math\nimport torch\nimport torch.nn as nn\n\n{decorator}class _Init{base}:\n{hook}"
         "    def make_weight(self, d, f):\n        return nn.Parameter(torch.zeros(d, f) / math.sqrt(d))\n\n"
         "    def step(self, loss):\n        loss.backward()\n\n"
         "class Linear(_Init, nn.Module):\n    def __init__(self, d, f):\n        super().__init__()\n"
         "        self.weight = self.make_weight(d, f)\n")


@pytest.mark.parametrize("decorator, base", [("", ""), ("", "(object)"), ("@dataclass\n", ""),
                                             ("@dataclasses.dataclass(frozen=True)\n", "")])
def test_a_plain_mixin_of_its_own_runs_none_of_its_methods_as_a_subclass_is_made(decorator, base):
    """``class Linear(_Init, nn.Module)`` at import, in a module the package's __init__ imports: making the
    class looks its plain bases up and calls none of their methods (nn.Parameter, a step's backward)."""
    model = "import dataclasses\nfrom dataclasses import dataclass\n" + MIXIN.format(decorator=decorator, base=base,
                                                                                       hook="")
    plain = "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n"
    assert findings(plain, {"__init__": "from . import gradients, model\n", "model": model}) == []


@pytest.mark.parametrize("hook", [
    "    def __init_subclass__(cls, **kw):\n        super().__init_subclass__(**kw)\n        cls.step(None, cls)\n\n",
    "    __init_subclass__ = classmethod(lambda cls: cls.step(None, cls))\n\n",
    "    if True:\n        def __init_subclass__(cls):\n            cls.step(None, cls)\n\n",
    "    def _should_skip_dynamo(cls):\n        cls.step(None, cls)\n\n",
    # a walrus binds in the class body wherever the body evaluates it: a statement, a value, a default
    "    def _hook(cls):\n        cls.step(None, cls)\n\n    (__init_subclass__ := classmethod(_hook))\n\n",
    "    def _hook(cls):\n        cls.step(None, cls)\n\n    hooks = [(__init_subclass__ := classmethod(_hook))]\n\n",
    "    def _hook(cls):\n        cls.step(None, cls)\n\n"
    "    def other(self, h=(__init_subclass__ := classmethod(_hook))):\n        pass\n\n",
    # the class body's namespace handed to code binds whatever it is told
    "    def _hook(cls):\n        cls.step(None, cls)\n\n    locals()['__init_subclass__'] = classmethod(_hook)\n\n",
    "    def _hook(cls):\n        cls.step(None, cls)\n\n    vars().update(__init_subclass__=classmethod(_hook))\n\n",
    "    def _hook(cls):\n        cls.step(None, cls)\n\n    exec('__init_subclass__ = classmethod(_hook)')\n\n",
])
def test_a_mixin_that_may_run_code_as_a_subclass_is_made_is_read_whole(hook):
    """A base of its own with a hook that runs as a subclass is made (``__init_subclass__``, however bound,
    or a method TorchDispatchMode's hook calls) runs what the hook calls: its methods are read."""
    model = MIXIN.format(decorator="", base="", hook=hook)
    plain = "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n"
    assert any(f.autograd and "model.py" in f.where
               for f in findings(plain, {"__init__": "from . import gradients, model\n", "model": model}))
    meta = MIXIN.format(decorator="", base="(metaclass=type)", hook="")  # a metaclass: anything may run
    assert any(f.autograd for f in findings(plain, {"__init__": "from . import gradients, model\n", "model": meta}))


@pytest.mark.parametrize("runs", ["    _ready = _install()\n", "    _ready = [_install][0]()\n",
                                  "    @_install\n    def other(self):\n        pass\n"])
def test_a_def_of_a_class_body_that_the_body_runs_is_read(runs):
    """A class body runs what it calls as the class is made: a def of its own it names (``_ready = _install()``)
    is read with the module's import-time code, as a module-level function's would be."""
    model = ("import torch\n\nTOOLS = {}\n\nclass _Tools:\n    def _install(f=None):\n"
             "        TOOLS['g'] = lambda t: torch.autograd.grad(t.sum(), t)\n        return f\n\n" + runs)
    plain = "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n"
    assert any(f.autograd and "model.py" in f.where
               for f in findings(plain, {"__init__": "from . import gradients, model\n", "model": model}))
    inert = model.replace(runs, "    pass\n")  # defined, never run: nothing of it is read
    assert findings(plain, {"__init__": "from . import gradients, model\n", "model": inert}) == []


def test_a_hook_handing_on_to_its_base_s_is_not_hiding():
    """A registry of chips filled as each is defined: its ``__init_subclass__`` calls its base's, as every
    such hook does. The same dunder reached from another method is still a way around the reading."""
    registry = ("PEAKS = {}\n\nclass _Chip:\n    peak = 0.0\n\n    def __init_subclass__(cls, **kw):\n"
                "        super().__init_subclass__(**kw)\n        PEAKS[cls.__name__] = cls.peak\n\n"
                "class A100(_Chip):\n    peak = 19.5e12\n")
    plain = "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n"
    init = {"__init__": "from . import gradients, roofline\n"}
    assert findings(plain, {**init, "roofline": registry}) == []
    elsewhere = registry.replace("    def __init_subclass__(cls, **kw):\n        super().__init_subclass__(**kw)\n",
                                 "    def __init_subclass__(cls, **kw):\n        cls.hand_on(**kw)\n\n"
                                 "    @classmethod\n    def hand_on(cls, **kw):\n        super().__init_subclass__(**kw)\n")
    assert any("__init_subclass__" in f.what for f in findings(plain, {**init, "roofline": elsewhere}))


def test_a_self_check_s_imports_and_test_case_are_not_charged():
    """A self-check at the top of gradients.py: its imports (argparse, timeit, unittest, types) and a
    unittest.TestCase that compares with autograd, whose methods nothing runs when the module is imported.
    What of them runs code given as text is charged where a gradient uses it."""
    check = ("import argparse, timeit, unittest, types\nimport torch\n\nclass Check(unittest.TestCase):\n"
             "    def test_grad(self):\n        x = torch.ones(2, requires_grad=True)\n        x.sum().backward()\n\n")
    assert findings(check + "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n", {}) == []
    timed = check + "def squared_error_grad(x, w, t):\n    return timeit.timeit('x.backward()', number=1)\n"
    assert any("timeit.timeit" in f.what for f in findings(timed, {}))


def test_a_function_run_through_its_module_s_import_of_itself_is_read():
    """``from .strides import _patch as _go; _go()`` in a module gradients.py imports: _patch is read, as a
    sibling's function is (it put autograd in place of both gradients, unread, for full marks)."""
    strides = {"strides": "def _patch():\n    import torch\n    from . import gradients\n"
                          "    gradients.squared_error_grad = lambda x, w, t: torch.func.grad(lambda u: (x @ u) ** 2)(w)\n"
                          "from .strides import _patch as _go\n_go()\n"}
    found = findings_of("import torch\nfrom . import strides\n\ndef squared_error_grad(x, w, t):\n"
                        "    return x * (x @ w - t)\n", strides)
    assert any(f.autograd and f.where.startswith("strides.py") for f in found), found


def test_data_read_back_as_code_in_a_helper_module_is_hiding():
    """A helper module's own imports are not charged; what it does with them, where a gradient runs it, is."""
    for body in ("pickle.loads(w)", "marshal.loads(w)", "torch.load(w, weights_only=False)", "types.FunctionType(w, {})",
                 "sys.exc_info()[2].tb_frame.f_globals", "runpy.run_path(w)", "codecs.decode(w, 'rot13')",
                 "torch.jit.load(w)", "inspect.getmembers(w)"):
        helper = {"_util": "import pickle, marshal, types, sys, runpy, codecs, inspect\nimport torch\n\n"
                           f"def load(w):\n    return {body}\n"}
        text = "from ._util import load\n\ndef squared_error_grad(x, w, t):\n    return load(w)\n"
        found = findings(text, helper)
        assert any("_util.py" in f.where for f in found), body
    at_import = {"_util": "import pickle\n\n_CODE = pickle.loads(b'N.')\n\ndef plain(x):\n    return x\n"}
    text = "from ._util import plain\n\ndef squared_error_grad(x, w, t):\n    return plain(x)\n"
    assert any("_util.py" in f.where for f in findings(text, at_import))


def test_text_run_as_code_in_a_helper_module_is_charged_where_a_gradient_runs_it():
    """A helper module's `import timeit` is not charged; its use, where a gradient runs it, is."""
    helper = {"_run": "import timeit, cProfile\n\ndef once(code, space):\n    timeit.Timer(code, globals=space).timeit(1)\n"
                      "    cProfile.Profile().runctx(code, space, space)\n    return space\n"}
    text = ("from ._run import once\n\n_CODE = \"w.requires_grad_(); (x @ w).backward(); out['g'] = w.grad\"\n\n"
            "def squared_error_grad(x, w, t):\n    return once(_CODE, {'x': x, 'w': w, 'out': {}})['out']['g']\n")
    found = findings(text, helper)
    assert {f.what for f in found if "_run.py" in f.where} >= {"uses timeit.Timer", "uses cProfile.Profile"}, found
    built = "from ._run import once\n\ndef squared_error_grad(x, w, t):\n    return once(str(t), {})\n"
    assert {f.what for f in findings(built, helper)} == {"uses timeit.Timer", "uses cProfile", "uses cProfile.Profile"}


OPS = {"ops": "import torch\n\nclass MatMul:\n    def __init__(self, x, w):\n        self.x, self.w = x, w\n\n"
              "    def backward(self, g):\n        return g @ self.w.T, self.x.T @ g\n\n"
              "RULE = MatMul(None, None)\n\ndef tensor(x):\n    return x * 1\n"}


@pytest.mark.parametrize("call", ["MatMul(x, w).backward(t)", "op.backward(t)", "ops.MatMul(x, w).backward(t)",
                                  "RULE.backward(t)", "ops.RULE.backward(t)"])
def test_another_own_module_s_class_and_instance_are_its_own(call):
    """A class of the implementation's own in a helper module, its instances, and a module-level instance:
    their `backward` is the class's method, read where it is defined (a tensor's is autograd)."""
    text = ("from .ops import MatMul, RULE\nfrom . import ops\n\ndef squared_error_grad(x, w, t):\n"
            f"    op = MatMul(x, w)\n    return {call}\n")
    assert findings(text, OPS) == []
    rule = "class _Rule:\n    def backward(self, g):\n        return g\n\n_R = _Rule()\n\n"
    assert findings(rule + "def squared_error_grad(x, w, t):\n    return _R.backward(t)\n") == []


@pytest.mark.parametrize("call", ["tensor(x).backward(t)", "ops.tensor(x).backward(t)", "x.backward(t)"])
def test_a_tensor_from_another_own_module_is_no_instance_of_its_own(call):
    text = f"from .ops import tensor\nfrom . import ops\n\ndef squared_error_grad(x, w, t):\n    return {call}\n"
    assert [f.what for f in findings(text, OPS)] == ["uses .backward"]
    patched = {"ops": OPS["ops"] + "\nMatMul = torch.Tensor\n"}  # bound again: no plain class of its own
    text = "from .ops import MatMul\n\ndef squared_error_grad(x, w, t):\n    return MatMul(x).backward(t)\n"
    assert [f.what for f in findings(text, patched)] == ["uses .backward"]


def test_a_module_s_own_class_made_at_import_is_its_own():
    """memory.py makes its recipes as it is imported: their methods may run, and ``self.grad``, the
    gradients' dtype, is the recipe's own field."""
    memory = {"memory": "from dataclasses import dataclass\n\n@dataclass(frozen=True)\nclass Recipe:\n    grad: int\n\n"
                        "    def bytes(self, n):\n        return n * self.grad\n\n"
                        "RECIPES = {'fp32': Recipe(4)}\n\ndef training_bytes(n, r):\n    return RECIPES[r].bytes(n)\n"}
    init = {"__init__": "from . import gradients, memory\n"}
    plain = "def squared_error_grad(x, w, t):\n    return x * (x @ w - t)\n"
    assert findings(plain, {**init, **memory}) == []


# a module's own code that may set its __name__ (so its __main__ block may run after all), and code that cannot
MAY_SET_NAME = {
    "a store through sys.modules": "import torch\ntorch.sys.modules[__name__].__name__ = '__main__'\n",
    "a store to a module imported as itself": "import assignment.gradients as _me\n_me.__name__ = '__main__'\n",
    "locals() at module level": "locals().update({'__na' + 'me__': '__main__'})\n",
    "setattr imported under another name": "from builtins import setattr as put\nput(m, '__na' + 'me__', 'x')\n",
    "__getattribute__": "import typing\ntyping.__getattribute__('__di' + 'ct__')\n",
    "getattr of a name built at run time": "import builtins\ngetattr(builtins, 'set' + 'attr')\n",
    "a name copied from a function named __main__": "def __main__():\n    pass\n\nf.__name__ = __main__.__name__\n",
    "the __main__ module's name": "import __main__\nf.__name__ = __main__.__name__\n",
}
CANNOT_SET_NAME = {
    "a main block": "if __name__ == '__main__':\n    pass\n",
    "getattr of a literal": "import torch\n_E = getattr(torch, 'finfo')\n",
    "a decorator copying a name": "def d(fn):\n    def inner(*a):\n        return fn(*a)\n"
                                  "    inner.__name__ = fn.__name__\n    return inner\n",
}


# a top-level __main__ block under a module that makes its own name "__main__": staging takes the block out,
# so the reading may read it as dead (it is: there is nothing left to run)
STAGED_OUT = {
    "__name__ a match capture": "match '__main__':\n    case __name__:\n        pass\n\n"
                                "if __name__ == '__main__':\n    torch.autograd.grad\n\n"
                                "def squared_error_grad(x, w, t):\n    return x\n",
    "made to run by a store to its own module": "import assignment.gradients as _me\n_me.__name__ = '__main__'\n\n"
                                                "if __name__ == '__main__':\n    torch.autograd.grad\n\n"
                                                "def squared_error_grad(x, w, t):\n    return x\n",
    "made to run by a store to __name__": "__name__ = '__main__'\nif __name__ == '__main__':\n"
                                          "    torch.autograd.grad\n\ndef squared_error_grad(x, w, t):\n    return x\n",
}


@pytest.mark.parametrize("name", sorted(STAGED_OUT))
def test_a_main_block_is_staged_out_and_read_as_dead(name, tmp_path):
    text = HEAD + STAGED_OUT[name] + PLAIN_LINEAR
    (tmp_path / "gradients.py").write_text(text.replace("\n", "\r\n"))  # line ends kept, CRLF included
    staged = (stage_submission(tmp_path, tmp_path / "staged") / "assignment" / "gradients.py").read_bytes().decode()
    assert "autograd" not in staged and staged.count("\r\n") == text.count("\n"), staged
    assert not any(f.autograd for f in findings(STAGED_OUT[name]))


@pytest.mark.parametrize("name", sorted(MAY_SET_NAME))
def test_a_module_that_may_set_its_name_keeps_its_main_block_live(name):
    assert Module.parse(MAY_SET_NAME[name], "gradients").rebinds_name


@pytest.mark.parametrize("name", sorted(CANNOT_SET_NAME))
def test_reading_or_copying_names_keeps_the_main_block_dead(name):
    assert not Module.parse(CANNOT_SET_NAME[name], "gradients").rebinds_name


@pytest.mark.parametrize("model", ["from torch.autograd import grad as _derive\n",
                                   "import torch\n_derive = torch.autograd.grad\n",
                                   # bound in an except handler, a match case: statements inside what is none
                                   "try:\n    raise ImportError\nexcept ImportError:\n"
                                   "    from torch.autograd import grad as _derive\n",
                                   "match 1:\n    case 1:\n        from torch.autograd import grad as _derive\n",
                                   # bound where it may not run: once, under an `if` (read all the same)
                                   "import sys\nif sys.version_info >= (3, 8):\n"
                                   "    from torch.autograd import grad as _derive\n",
                                   "import sys, torch\nif sys.version_info >= (3, 8):\n    _derive = torch.autograd.grad\n",
                                   "from torch._functorch.aot_autograd import aot_export_joint_simple as _derive\n"])
def test_a_library_object_a_sibling_took_is_read_as_that_object(model):
    """gradients.py taking autograd from model.py, which imported it (``from .model import _derive``), uses
    autograd as surely as an import of its own would; a function model.py defines is read where it is."""
    text = "from .model import _derive\n\ndef squared_error_grad(x, w, t):\n    return _derive(x, w)\n"
    package = {"gradients": text, "model": model, "__init__": ""}
    assert any(f.autograd for f in audit_no_autograd(package, "gradients", ("squared_error_grad",))), model
    honest = {"gradients": text, "model": "import numpy as np\n\ndef _derive(x, w):\n    return x * np.float32(1)\n",
              "__init__": ""}
    assert audit_no_autograd(honest, "gradients", ("squared_error_grad",)) == []


# (where the star import is, what gradients.py writes to take the name)
STAR_TAKEN = {
    "the package's": ({"__init__": "from torch.autograd import *\n"}, "from . import grad as _derive"),
    "the package's, by its full name": ({"__init__": "from torch.autograd import *\n"},
                                        "from assignment import grad as _derive"),
    "a sibling's": ({"__init__": "", "_util": "from torch.autograd import *\n"}, "from ._util import grad as _derive"),
    "a star of a star": ({"__init__": "from ._util import *\n", "_util": "from torch.autograd import *\n"},
                         "from . import grad as _derive"),
    "a module torch's readings do not list": ({"__init__": "from torch.autograd.functional import *\n"},
                                              "from . import vjp as _derive"),
    # `from . import vjp` hands out the package's attribute where it has one, a vjp.py beside it notwithstanding
    "the package's, over a module of the same name": ({"__init__": "from torch.func import *\n",
                                                       "vjp": "EXAMPLES = ()\n"}, "from . import vjp as _derive"),
    "the package's import under an if, over a module of the same name": (
        {"__init__": "import sys\nif sys.version_info >= (3, 8):\n    from torch.func import vjp\n",
         "vjp": "EXAMPLES = ()\n"}, "from . import vjp as _derive"),
    "the package's own import, over a module of the same name": ({"__init__": "from torch.func import vjp\n",
                                                                  "vjp": "EXAMPLES = ()\n"},
                                                                 "from assignment import vjp as _derive"),
}


@pytest.mark.parametrize("name", sorted(STAR_TAKEN))
def test_a_library_object_only_a_sibling_s_star_import_binds_is_read_as_that_object(name):
    """``from torch.autograd import *`` in the package's ``__init__`` (or a sibling), then ``from . import grad``
    in gradients.py, scored Part 7 10/10 with autograd: the name bound by no statement of the sibling's was
    read as nothing there. It is read as what the star import binds, as installed."""
    package, taking = STAR_TAKEN[name]
    text = f"{taking}\n\ndef squared_error_grad(x, w, t):\n    return _derive(x, w)\n"
    found = audit_no_autograd({**package, "gradients": text}, "gradients", ("squared_error_grad",))
    assert any(f.autograd for f in found), found


# `from . import vjp` beside a data-only vjp.py takes whatever the package's __init__ bound last under that name
PACKAGE_REBINDS = {
    "the module, then torch's": "from . import vjp\nfrom torch.func import vjp\n",
    "torch's, then the module (never loaded)": "from torch.func import vjp\nfrom . import vjp\n",
    "the module, then a star import": "from . import vjp\nfrom torch.func import *\n",
    "by its full name": "from assignment import vjp\nfrom torch.func import vjp\n",
}


@pytest.mark.parametrize("name", sorted(PACKAGE_REBINDS))
def test_a_module_s_name_the_package_binds_again_is_no_proof(name):
    """gradients.py's ``from . import vjp`` was read as the data-only vjp.py, while the package's ``__init__``
    had bound the name to torch.func.vjp (Part 7 10/10 with autograd): which object it takes is not read, and
    so it is charged."""
    for taking in ("from . import vjp as _derive", "from assignment import vjp as _derive"):
        package = {"__init__": PACKAGE_REBINDS[name], "vjp": "EXAMPLES = ()\n",
                   "gradients": f"{taking}\n\ndef squared_error_grad(x, w, t):\n    return _derive(x, w)\n"}
        found = audit_no_autograd(package, "gradients", ("squared_error_grad",))
        assert found, (name, taking)
    honest = {"__init__": "from . import vjp\n", "vjp": "EXAMPLES = ()\n",
              "gradients": "from . import vjp\n\ndef squared_error_grad(x, w, t):\n    return x * len(vjp.EXAMPLES)\n"}
    assert audit_no_autograd(honest, "gradients", ("squared_error_grad",)) == []


def test_a_package_that_re_exports_its_modules_by_star_imports_is_read_as_before():
    """An honest ``__init__`` star-importing every module (``from .flops import *``...) is no package binding a
    sibling's name: the reference's gradients, so packaged, use no autograd."""
    sources = {path.stem: path.read_text() for path in (ROOT / "reference").glob("*.py")}
    sources["__init__"] = "".join(f"from .{name} import *\n" for name in sorted(sources) if name != "__init__")
    for function in ("squared_error_grad", "linear_backward"):
        assert audit_no_autograd(sources, "gradients", (function,)) == []


# a module of the submission's own, under another name the package (or a sibling) gives it
MODULE_ALIASES = {
    "from . import m as helper": ({"__init__": "from . import m as helper\n"}, "from . import helper"),
    "import assignment.m as helper": ({"__init__": "import assignment.m as helper\n"}, "from . import helper"),
    "from assignment import m as helper": ({"__init__": "from assignment import m as helper\n"},
                                           "from assignment import helper"),
    "helper = m": ({"__init__": "from . import m\nhelper = m\n"}, "from . import helper"),
    "a sibling's alias": ({"__init__": "", "model": "from . import m as helper\n"}, "from .model import helper"),
    "helper, n = m, 1": ({"__init__": "from . import m\nhelper, n = m, 1\n"}, "from . import helper"),
    "helper = pkg.m": ({"__init__": "import assignment as pkg\nfrom . import m\nhelper = pkg.m\n"},
                       "from . import helper"),
    "a class holding it": ({"__init__": "from . import m\nclass helper:\n    f = m.f\n"}, "from . import helper"),
    "a chain through two siblings": ({"__init__": "", "strides": "from . import m as helper\n",
                                      "named": "from .strides import helper\n"}, "from .named import helper"),
    "a dict holding it": ({"__init__": "from . import m\nhelper = {'m': m}['m']\n"}, "from . import helper"),
    "five names deep": ({"__init__": "from . import m\na = m\nb = a\nc = b\nd = c\nhelper = d\n"},
                        "from . import helper"),
}


@pytest.mark.parametrize("name", sorted(MODULE_ALIASES))
def test_a_module_of_its_own_under_another_name_is_read_as_that_module(name):
    """``from . import model as helper`` in the package's ``__init__``, then ``helper.f(...)`` in gradients.py,
    with ``f`` calling autograd in model.py: ``helper.f`` was followed to the package, which read model.py's
    import-time code but never ``f`` (Part 7 10/10; Part 4 alike with torch's counter). It is model's ``f``."""
    package, taking = MODULE_ALIASES[name]
    text = f"{taking}\n\ndef squared_error_grad(x, w, t):\n    return helper.f(x, w) + getattr(helper, 'f')(x, w)\n"
    autograd = "import torch\n\ndef f(x, w):\n    return torch.autograd.grad(x, w)\n"
    found = audit_no_autograd({**package, "m": autograd, "gradients": text}, "gradients", ("squared_error_grad",))
    assert any(f.autograd and f.where.startswith("m.py") for f in found), found
    plain = {**package, "m": "def f(x, w):\n    return x * w\n", "gradients": text}
    assert audit_no_autograd(plain, "gradients", ("squared_error_grad",)) == []


def test_a_name_a_star_import_may_bind_where_it_cannot_be_read_is_no_proof():
    """A sibling's star import of a module of the submission's own that binds the name twice: which object the
    name is cannot be told, and what cannot be read is charged (autograd, the test's to refuse, may be it)."""
    package = {"__init__": "from ._util import *\n",
               "_util": "from torch.autograd import grad\nfrom torch.autograd import grad\n",
               "gradients": "from . import grad as _g\n\ndef squared_error_grad(x, w, t):\n    return _g(x, w)\n"}
    found = audit_no_autograd(package, "gradients", ("squared_error_grad",))
    assert [(f.where, f.autograd) for f in found] == [("__init__.py", False)], found
    assert "star import" in found[0].what


@pytest.mark.parametrize("spelled", ['torch.zeros_like(w, **{"requires_grad": True})',
                                     "torch.zeros_like(w, **dict(requires_grad=True))",
                                     'torch.zeros_like(w, **OPTIONS)'])
def test_requires_grad_handed_on_in_a_dict_is_a_keyword_all_the_same(spelled):
    text = (f'import torch\nOPTIONS = {{"requires_grad": True}}\n\ndef squared_error_grad(x, w, t):\n'
            f"    leaf = {spelled}\n    return x * leaf\n")
    assert any(f.autograd and "requires_grad" in f.what for f in findings(text)), spelled
    plain = text.replace("True", "False").replace("requires_grad=False", "dtype=None")
    assert not any(f.autograd for f in findings(plain)), plain


class _OneFunction:
    """An implementation that hands out one function, whatever it is asked for (what a probe calls)."""

    def __init__(self, fn):
        self.fn = fn

    def function(self, name):
        return self.fn


def _left_waiting(thread) -> None:
    """Until ``thread`` waits: its CPU clock still for 50 ms (5 s at most)."""
    import threading
    import time

    clock = time.pthread_getcpuclockid(threading.Thread.ident.fget(thread))
    last, deadline = time.clock_gettime(clock), time.monotonic() + 5
    while time.monotonic() < deadline:
        time.sleep(0.05)
        if (now := time.clock_gettime(clock)) == last:
            return
        last = now


def test_the_watch_sees_autograd_handed_to_a_thread_started_before_the_call():
    """``autograd_watched``'s mode sees the calling thread's ops alone: a thread the module started when it was
    imported, handed each call's work, runs autograd unseen, so a thread of the implementation's that ran
    during the call is reported as one started by it is; one left waiting (started by a part run earlier in
    the same process) is not, nor are the harness's own threads; and the call's answer comes back for the
    test to check."""
    import queue
    import threading

    from grader.harness.lookahead import HARNESS_THREADS
    from grader.harness.probes.part07 import autograd_watched

    def by_hand(x, w, target):
        return x * (x @ w - target)

    x, w = torch.tensor([1.0, 2.0]), torch.tensor([0.5, -1.0])
    plain = autograd_watched.fn(_OneFunction(by_hand), "gradients.squared_error_grad", x, w, 1.0)
    assert not (plain.graph or plain.engine or plain.threads) and torch.equal(plain.answer, by_hand(x, w, 1.0))

    stop = object()

    def server(cls):
        """A thread of ``cls`` that takes (x, w, target) and answers by autograd; and a function that hands it
        its inputs."""
        jobs: queue.Queue = queue.Queue()

        def serve():
            while (job := jobs.get()) is not stop:
                leaf = job[1].detach().requires_grad_(True)
                (0.5 * (job[0] @ leaf - job[2]) ** 2).backward()
                job[3].put(leaf.grad)

        def in_a_thread(x, w, target):
            answer: queue.Queue = queue.Queue()
            jobs.put((x, w, target, answer))
            return answer.get()

        thread = cls(target=serve, daemon=True)
        thread.start()
        return thread, in_a_thread, lambda: (jobs.put(stop), thread.join())

    class Quiet(threading.Thread):  # a thread that says it has no ident: the interpreter's word is taken
        ident = None

    quiet, in_a_quiet_thread, done = server(Quiet)
    try:
        handed = autograd_watched.fn(_OneFunction(in_a_quiet_thread), "gradients.squared_error_grad", x, w, 1.0)
        assert handed.threads and not handed.engine  # (the ops ran in the other thread, unseen)
        assert torch.equal(handed.answer, by_hand(x, w, 1.0))
        # the same thread left waiting while a call computes by hand (once it is waiting: on a loaded machine the
        # tail of its last job, after it handed the answer back, ran during the next call, and counted)
        _left_waiting(quiet)
        assert not autograd_watched.fn(_OneFunction(by_hand), "gradients.squared_error_grad", x, w, 1.0).threads
    finally:
        done()
    harness, in_the_harness_thread, done = server(threading.Thread)
    try:  # a thread of the harness's own (its lookahead) is not the implementation's
        HARNESS_THREADS.add(harness)
        assert not autograd_watched.fn(_OneFunction(in_the_harness_thread), "gradients.squared_error_grad", x, w,
                                       1.0).threads
    finally:
        done()


@pytest.mark.parametrize("how", ["jacfwd", "make_dual", "torch._C"])
def test_the_watch_sees_forward_mode_autograd(how):
    """Forward-mode autograd (``torch.func.jacfwd``, ``forward_ad.make_dual``) builds no graph and runs no engine:
    the watch reports the ops it ran inside a forward-mode level; a plain call reports none."""
    import torch.autograd.forward_ad as forward_ad

    from grader.harness.probes.part07 import autograd_watched

    def by_jacfwd(x, w, target):
        return torch.func.jacfwd(lambda v: 0.5 * (x @ v - target) ** 2)(w)

    def by_duals(x, w, target):
        with forward_ad.dual_level():
            slopes = [forward_ad.unpack_dual(0.5 * (x @ forward_ad.make_dual(w, e) - target) ** 2).tangent
                      for e in torch.eye(len(w))]
        return torch.stack(slopes)

    def by_c(x, w, target):  # torch._C's own entry points: no Python-level level is set
        level = torch._C._enter_dual_level()
        try:
            slopes = [torch._unpack_dual(0.5 * (x @ torch._make_dual(w, e, level=level) - target) ** 2,
                                         level=level)[1] for e in torch.eye(len(w))]
        finally:
            torch._C._exit_dual_level(level=level)
        return torch.stack(slopes)

    x, w = torch.tensor([1.0, 2.0]), torch.tensor([0.5, -1.0])
    watched = autograd_watched.fn(_OneFunction({"jacfwd": by_jacfwd, "make_dual": by_duals, "torch._C": by_c}[how]),
                                  "gradients.squared_error_grad", x, w, 1.0)
    assert watched.dual and not watched.engine, how
    assert torch.allclose(watched.answer.double(), (x * (x @ w - 1.0)).double())
    plain = autograd_watched.fn(_OneFunction(lambda x, w, t: x * (x @ w - t)), "gradients.squared_error_grad", x, w, 1.0)
    assert not (plain.dual or plain.graph or plain.engine)


def test_a_name_of_its_own_class_autograd_s_objects_have_too_is_found_for_the_message():
    """Part 7's "used autograd" says so where the name is also a method or attribute of the submission's own
    class (``op.backward(g)`` on an op taken from a list: honest, and unreadable as its own)."""
    from tests.test_part07_gradients import _own_attribute_names

    found = _own_attribute_names({"gradients": "class Op:\n    def backward(self, g):\n        self.grad = g\n",
                                  "broken": "def (:\n"})
    assert {"backward", "grad"} <= found and "g" not in found
