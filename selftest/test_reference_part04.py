"""Staff check: the Part 4 reference agrees with torch's own FLOP counter, and rejects bad arguments.

``torch.utils.flop_counter.FlopCounterMode`` is the oracle of the oracle. Sizes
up to model scale are counted on the meta device: shapes only, no arithmetic.
"""

import math

import pytest
import torch
from hypothesis import given, strategies as st
from torch import nn
from torch.utils.flop_counter import FlopCounterMode

from grader.harness.probes.part04 import NO_GRAD, OPERANDS, build_scenario
from reference import flops as R
from selftest.grading import ROOT
from tests.strategies import part04 as S


def counted(fn) -> int:
    mode = FlopCounterMode(display=False)
    with mode:
        fn()
    return mode.get_total_flops()


MATMULS = frozenset(["aten.mm", "aten.addmm", "aten.bmm", "aten.baddbmm"])


def counted_matmuls(fn) -> int:
    """torch's count of the four matmul ops alone (FlopCounterMode counts convolutions, attention, ... too)."""
    mode = FlopCounterMode(display=False)
    with mode:
        fn()
    # nothing counted at all (a dot product alone): no "Global" entry
    return sum(n for op, n in mode.get_flop_counts().get("Global", {}).items() if str(op) in MATMULS)


def meta(*shape, requires_grad=False):
    return torch.empty(shape, device="meta", requires_grad=requires_grad)


@given(S.matmul_sizes())
def test_matmul_flops_is_torchs(sizes):
    m, k, n = sizes
    assert R.matmul_flops(m, k, n) == counted(lambda: meta(m, k) @ meta(k, n))


@given(S.matmul_sizes())
def test_linear_flops_are_the_three_matmuls(sizes):
    tokens, d_in, d_out = sizes
    x, w = meta(tokens, d_in, requires_grad=True), meta(d_in, d_out, requires_grad=True)
    y = x @ w
    grad_y = meta(tokens, d_out)
    expected = R.LinearFlops(
        forward=counted(lambda: x @ w),
        backward_input=counted(lambda: torch.autograd.grad(y, x, grad_y, retain_graph=True)),
        backward_weight=counted(lambda: torch.autograd.grad(y, w, grad_y, retain_graph=True)),
    )
    assert R.linear_flops(tokens, d_in, d_out) == expected


class DeepLinear(nn.Module):
    """A Cruncher built here, not taken from reference/model.py: layers of x @ W, then a [dim, 1] one."""

    def __init__(self, dim: int, num_layers: int) -> None:
        super().__init__()
        self.weights = nn.ParameterList(
            [nn.Parameter(torch.empty(dim, dim, device="meta")) for _ in range(num_layers)]
            + [nn.Parameter(torch.empty(dim, 1, device="meta"))]
        )

    def forward(self, x):
        for w in self.weights:
            x = x @ w
        return x.squeeze(-1)


@given(S.cruncher_cases())
def test_cruncher_flops_is_torchs(case):
    batch, dim, layers = case[:3]
    input_requires_grad = bool(case[3:] and case[3])
    model = DeepLinear(dim, layers)
    x = meta(batch, dim, requires_grad=input_requires_grad)
    mode = FlopCounterMode(display=False)
    with mode:
        loss = model(x).sum()
    forward = mode.get_total_flops()
    backward = counted(loss.backward)
    assert R.cruncher_flops(*case) == (forward, backward)


@given(st.integers(1, 64), st.lists(st.integers(1, 64), min_size=1, max_size=4))
def test_training_flops_is_6pd_for_a_deep_linear_model(tokens, widths):
    """With bias-free layers and an input that requires grad, 6PD is exact, not an estimate."""
    dims = [widths[0], *widths]
    layers = [meta(a, b, requires_grad=True) for a, b in zip(dims, dims[1:])]
    x = meta(tokens, dims[0], requires_grad=True)

    def step():
        y = x
        for w in layers:
            y = y @ w
        y.sum().backward()

    params = sum(w.numel() for w in layers)
    assert R.training_flops(params, tokens) == counted(step)


@given(S.training_time_cases())
def test_training_seconds_delivers_the_flops(case):
    total, gpus, peak, mfu = case
    assert math.isclose(R.training_seconds(*case) * gpus * peak * mfu, total, rel_tol=1e-12)


@given(S.forward_scenarios())
def test_count_matmul_flops_is_torchs_forward(scenario):
    assert R.count_matmul_flops(build_scenario(*scenario)) == counted_matmuls(build_scenario(*scenario))


@given(S.backward_scenarios())
def test_count_matmul_flops_is_torchs_backward(scenario):
    assert R.count_matmul_flops(build_scenario(*scenario)) == counted_matmuls(build_scenario(*scenario))


def test_count_matmul_flops_is_torchs_on_the_meta_device():
    """The hidden test's run-sized products, shapes without data: torch's counter agrees, past 2**64."""
    from tests.hidden.test_part04_flops_hidden import meta_scenario

    scenario = meta_scenario(1001, 2**17)
    count = R.count_matmul_flops(build_scenario(*scenario))
    assert count == counted_matmuls(build_scenario(*scenario)) > 2**64


def test_scenarios_cover_every_op_kind():
    """Each op kind of the probe runs and, at sizes 2, counts some matmul; the convolution counts none,
    where torch's own counter counts it (so that a counter copied from torch is caught), and neither do a
    matrix-vector or vector-vector product, nor their fused forms (addmv, addbmm), forward. mm into out= runs
    forward only (no autograd there)."""
    for kind in sorted(OPERANDS):
        num_dims, num_operands = S._arity(kind)
        backward = kind not in NO_GRAD
        fn = build_scenario([(kind, (2,) * num_dims, (backward,) * num_operands)], backward, 0)
        if kind in ("mv", "dot", "addmv", "addbmm"):
            assert R.count_matmul_flops(build_scenario([(kind, (2,) * num_dims, (False,) * num_operands)],
                                                       False, 0)) == 0, kind
        elif kind == "conv1d":
            assert R.count_matmul_flops(fn) == 0 < counted(build_scenario([(kind, (2,) * num_dims,
                                                                           (True,) * num_operands)], True, 0))
        else:
            assert R.count_matmul_flops(fn) > 0, kind


def test_docstring_examples():
    assert R.matmul_flops(100, 256, 512) == 26_214_400
    assert R.linear_flops(100, 256, 512) == (26214400, 26214400, 26214400)
    assert R.training_flops(70e9, 15e12) == pytest.approx(6.3e24, rel=1e-12)
    assert R.training_seconds(6.3e24, 1024, 989.5e12, 0.5) == pytest.approx(1.2435e7, rel=1e-4)
    assert R.training_seconds(6.3e24, 1024, 989.5e12, 0.5) / 86400 == pytest.approx(144, abs=0.5)
    assert R.cruncher_flops(100, 256, 1) == (13158400, 13209600)
    assert R.cruncher_flops(100, 256, 1, True) == (13158400, 26316800)
    assert R.cruncher_flops(8, 4, 0) == (64, 64)
    x, w = torch.randn(3, 4, requires_grad=True), torch.randn(4, 5)
    assert R.count_matmul_flops(lambda: (x @ w).sum().backward()) == 240


@pytest.mark.parametrize("call", [
    lambda: R.matmul_flops(-1, 2, 3),
    lambda: R.linear_flops(4, -2, 3),
    lambda: R.training_flops(-1, 10),
    lambda: R.training_seconds(1e20, 0, 1e15, 0.5),
    lambda: R.training_seconds(1e20, 8, 0, 0.5),
    lambda: R.training_seconds(1e20, 8, 1e15, 0),
    lambda: R.training_seconds(1e20, 8, 1e15, 1.5),
    lambda: R.training_seconds(-1, 8, 1e15, 0.5),
    lambda: R.cruncher_flops(4, 8, -1),
], ids=["negative m", "negative d_in", "negative params", "no gpus", "zero peak", "mfu 0", "mfu above 1",
        "negative flops", "negative layers"])
def test_bad_arguments_raise_value_error(call):
    with pytest.raises(ValueError, match=r"\w"):
        call()


# -- the reading behind "counts with its own mode": a name looked up at run time is no proof of absence
from grader.harness.source import unwritten_lookups  # noqa: E402

COUNTER = ("from torch.utils._python_dispatch import TorchDispatchMode\n\n"
           "class _Counter(TorchDispatchMode):\n"
           "    def __init__(self):\n        super().__init__()\n        self.flops = 0\n\n"
           "    def __torch_dispatch__(self, func, types, args=(), kwargs=None):\n"
           "        if func.overloadpacket in _MATMULS:\n            self.flops += 1\n"
           "        return func(*args, **(kwargs or {}))\n\n")
WRITTEN_OUT = "def count_matmul_flops(fn):\n    with _Counter() as c:\n        fn()\n    return c.flops\n"
UNWRITTEN = {
    "importlib": "import importlib\n\ndef count_matmul_flops(fn):\n"
                 "    return importlib.import_module('torch.utils.' + 'flop_counter')\n",
    "__import__": "def count_matmul_flops(fn):\n    return __import__('torch.utils.' + 'flop_counter')\n",
    "sys.modules, imported in the function": "def count_matmul_flops(fn):\n    import sys\n"
                                             "    return sys.modules['torch.utils.flop_counter']\n",
    "sys.modules through logging": "import logging\n\ndef count_matmul_flops(fn):\n"
                                   "    return logging.sys.modules['torch.utils.flop_counter']\n",
    "getattr of a built name": "def count_matmul_flops(fn):\n    return getattr(torch.utils, 'flop_' + 'counter')\n",
    "eval": "def count_matmul_flops(fn):\n    return eval('torch.utils.flop_counter')\n",
    "a helper's table by getattr": "from ._h import COUNTER\n\ndef count_matmul_flops(fn):\n    return COUNTER\n",
    "a jaxtyping dimension run as code": "from jaxtyping import Float\n\n"
                                         "def count_matmul_flops(fn: Float[torch.Tensor, '{exec(c)}']):\n    return 0\n",
    "getattr of a function's globals": "def count_matmul_flops(fn):\n    return getattr(fn, '__glo' 'bals__')\n",
    "a module's __name__ set by the package": "def count_matmul_flops(fn):\n    if __name__ == '__main__':\n"
                                              "        return 1\n    return 0\n",
    "getattr on a plain function's parameter named self": "def _pick(self, name):\n    return getattr(self, name)\n\n"
                                                          "def count_matmul_flops(fn):\n"
                                                          "    return _pick(torch.utils, 'flop_' + 'counter')\n",
    "a namespace looked up by name": "def count_matmul_flops(fn):\n    return globals().get('_by_' + 'torch')\n",
    "a method called through its class with any self": "class _P:\n    def step(self, name):\n"
                                                       "        return getattr(self, name)\n\n"
                                                       "def count_matmul_flops(fn):\n"
                                                       "    return _P.step(torch.utils, 'flop_' + 'counter')\n",
    "timeit running a string": "import timeit\n\ndef count_matmul_flops(fn):\n"
                               "    return timeit.Timer('fn()', globals={'fn': fn}).timeit(1)\n",
    "an annotation's name bound to a string built at run time": "_S = ''.join(['in', 't'])\n\n"
                                                                 "def _f(a: _S):\n    pass\n\n"
                                                                 "def count_matmul_flops(fn):\n    return 0\n",
    "a string stored as an annotation": "def count_matmul_flops(fn):\n"
                                        "    count_matmul_flops.__annotations__['fn'] = str(fn)\n    return 0\n",
    # a Formatter looks each field up and hands the object to a method of the submission's own
    "a Formatter's field": "import string\n\nclass _Grab(string.Formatter):\n"
                           "    def format_field(self, value, spec):\n        self.got = value\n        return ''\n\n"
                           "def count_matmul_flops(fn):\n    g = _Grab()\n"
                           "    g.format('{0.utils.flop_counter.FlopCounterMode}', torch)\n    return g.got\n",
    # `case C(v)` reads the attribute C.__match_args__ names: text, on an ABC that passes any object
    "a class pattern by position": "import abc\n\nclass _Any(abc.ABC):\n    @classmethod\n"
                                   "    def __subclasshook__(cls, other):\n        return True\n\n"
                                   "class _Part(_Any):\n    __match_args__ = ('_'.join(['flop', 'counter']),)\n\n"
                                   "def count_matmul_flops(fn):\n    match torch.utils:\n        case _Part(c):\n"
                                   "            return c\n",
    # a loop variable bound to something else too (a table's values, another loop) is no operator
    "getattr of a built name on a table's values": "_T = {torch.ops.aten.mm: torch.utils}\n"
                                                   "def count_matmul_flops(fn):\n"
                                                   "    return [getattr(p, 'flop_' + 'counter') for p in _T.values()]\n",
    "getattr of a built name on a table's keys, the table added to": "_T = {torch.ops.aten.mm: 1}\n_T[torch.utils] = 2\n"
                                                                       "def count_matmul_flops(fn):\n"
                                                                       "    return [getattr(p, 'flop_' + 'counter') "
                                                                       "for p in _T]\n",
    "getattr of a built name on a local table named as a module's": "_T = (torch.ops.aten.mm,)\n"
                                                                     "def count_matmul_flops(fn):\n"
                                                                     "    _T = (torch.utils,)\n"
                                                                     "    for p in _T:\n"
                                                                     "        return getattr(p, 'flop_' + 'counter')\n",
    "getattr of a built name on a loop bound twice": "def count_matmul_flops(fn):\n"
                                                     "    for p in (torch.ops.aten.mm,):\n        pass\n"
                                                     "    for p in (torch.utils,):\n"
                                                     "        return getattr(p, 'flop_' + 'counter')\n",
    # torch.ops is no operator namespace: a built name there reaches importlib (`torch.ops.import_module`)
    "getattr of a built name on torch.ops": "def count_matmul_flops(fn):\n    ops = torch.ops\n"
                                            "    return getattr(ops, 'import_' + 'module')('assignment.' + 'scratch')\n",
}
HELPERS = {"_h": "import torch\n\nCOUNTER = getattr(torch.utils, 'flop_' + 'counter')\n",
           # a module only the package imports, putting a counter where flops.py reads a plain name
           "__init__": "from . import _p\n", "_p": "import torch\n\ntorch.my_counter = 1\n"}
WRITTEN = {
    "a dispatch mode": WRITTEN_OUT,
    "getattr on torch's operator namespace": "_NAMES = ['mm', 'addmm', 'bmm', 'baddbmm']\n"
                                             "_MATMULS = {getattr(torch.ops.aten, n) for n in _NAMES}\n\n" + WRITTEN_OUT,
    "a pattern compiled at import": "import re\n\n_OP = re.compile(r'aten\\.(\\w+)')\n\n" + WRITTEN_OUT,
    "getattr on each overload of literal packets": "_OPS = {getattr(p, n) for p in (torch.ops.aten.mm, torch.ops.aten.bmm) "
                                                   "for n in p.overloads()}\n\n" + WRITTEN_OUT,
    # ... of packets in a table of its own: a tuple, a dict's keys, the first of its items; in a loop statement
    **{f"getattr on each overload of packets {how}": "_T = {torch.ops.aten.mm: 1, torch.ops.aten.bmm: 2}\n"
       "_L = (torch.ops.aten.mm, torch.ops.aten.bmm)\n" + loop + "\n" + WRITTEN_OUT for how, loop in [
           ("in a tuple", "_OPS = {getattr(p, n) for p in _L for n in p.overloads()}\n"),
           ("as a table's keys", "_OPS = {getattr(p, n): _T[p] for p in _T for n in p.overloads()}\n"),
           ("as a table's items", "_OPS = {getattr(p, n): f for p, f in _T.items() for n in p.overloads()}\n"),
           ("in loop statements", "_OPS = {}\nfor _p in _L:\n    for _n in _p.overloads():\n"
                                  "        _OPS[getattr(_p, _n)] = _p\nfor _p in (torch.ops.aten.addmm,):\n"
                                  "    for _n in _p.overloads():\n        _OPS[getattr(_p, _n)] = _p\n"),
       ]},
    "a visitor's getattr of its own methods": "class _V(TorchDispatchMode):\n"
                                              "    def __torch_dispatch__(self, func, types, args=(), kwargs=None):\n"
                                              "        rule = getattr(self, '_' + func.overloadpacket.__name__, None)\n"
                                              "        return func(*args, **(kwargs or {}))\n\n" + WRITTEN_OUT,
    "a table of names split from a literal": "_NAMES = 'mm addmm bmm baddbmm'.split()\n"
                                             "_DT = {n: getattr(torch, n) for n in 'float32 bfloat16'.split()}\n\n" + WRITTEN_OUT,
    "a private attribute by a literal getattr": "def _packet(func):\n    return getattr(func, '_overloadpacket', func)\n\n"
                                                + WRITTEN_OUT,
    "torch's version, a dunder that reaches nothing": "_V = torch.__version__.split('.')\n\n" + WRITTEN_OUT,
    "a symbolic jaxtyping dimension": "from jaxtyping import Float\n\n"
                                      "def _f(x: Float[torch.Tensor, 'n d-1']):\n    return x\n\n" + WRITTEN_OUT,
    "a named tuple made with its field types as text": "from typing import NamedTuple\n\n"
                                                       "LinearFlops = NamedTuple('LinearFlops', [('forward', 'int'), "
                                                       "('backward', 'list[int]')])\n\n" + WRITTEN_OUT,
    "a match by position on its own dataclass": "from dataclasses import dataclass\n\n@dataclass\nclass _Op:\n"
                                                "    name: str\n    flops: int\n\n"
                                                "def _flops(op):\n    match op:\n        case _Op(_, n):\n"
                                                "            return n\n\n" + WRITTEN_OUT,
    "a doctest self-check": "from doctest import testmod\n\n" + WRITTEN_OUT
                            + "\nif __name__ == '__main__':\n    testmod()\n",
    # a count kept on the mode's own class, a datum its body declares (an honest student's, round 31)
    "a count kept on its own class": "class _C(TorchDispatchMode):\n    flops = 0\n\n"
                                     "    def __init__(self):\n        super().__init__()\n"
                                     "        self.__class__.flops = 0\n\n"
                                     "    def __torch_dispatch__(self, func, types, args=(), kwargs=None):\n"
                                     "        type(self).flops += 2\n        return func(*args, **(kwargs or {}))\n\n"
                                     "def count_matmul_flops(fn):\n    with _C():\n        fn()\n"
                                     "    return _C.flops\n",
}
# ... but not what may put code on another class: called unbound, ``self`` may be a tensor
ON_A_CLASS = ("class _C:\n    flops = 0\n    data = 0\n\n    def put(self, value):\n        {store}\n\n"
              "def count_matmul_flops(fn):\n    _C.put(torch.ones(1), len)\n    return 0\n")
CLASS_STORES = {
    "a function stored": "type(self).flops = value",
    "a dunder": "type(self).__add__ = value",
    "a name a tensor has": "self.__class__.data += 1",
    "a name the class does not declare": "type(self).mm = 0",
}


@pytest.mark.parametrize("name", sorted(UNWRITTEN))
def test_a_name_looked_up_at_run_time_is_charged(name):
    sources = {"flops": "import torch\n\n_MATMULS = ()\n" + COUNTER + UNWRITTEN[name], "_h": HELPERS["_h"]}
    if "__name__" in name:  # set from the package's __init__: the branch runs after all
        sources["__init__"] = "from . import flops\nflops.__name__ = '__main__'\n"
    assert unwritten_lookups(sources, "flops", "count_matmul_flops"), name


@pytest.mark.parametrize("name", sorted(CLASS_STORES))
def test_a_store_on_type_of_self_is_charged_unless_a_count_of_its_own(name):
    sources = {"flops": "import torch\n\n" + ON_A_CLASS.format(store=CLASS_STORES[name])}
    assert [f.what.split(" ")[0] for f in unwritten_lookups(sources, "flops", "count_matmul_flops")] == ["patches"]
    counted = ON_A_CLASS.format(store="type(self).flops += 1\n        self.__class__.flops = 0")
    assert unwritten_lookups({"flops": "import torch\n\n" + counted}, "flops", "count_matmul_flops") == []


def test_a_store_into_torch_by_a_module_the_package_imports_is_charged():
    sources = {"flops": "import torch\n\n_MATMULS = ()\n" + COUNTER + WRITTEN_OUT,
               "__init__": HELPERS["__init__"], "_p": HELPERS["_p"]}
    assert [f.what for f in unwritten_lookups(sources, "flops", "count_matmul_flops")] == ["patches torch.my_counter"]


def test_names_a_star_import_may_bind_again_are_charged():
    """``ATTRS = ("data",)`` then ``from .helpers import *``, whose module binds ATTRS to torch's counter's
    names: the tuple written out is not what the getattr is given."""
    flops = "import torch\n\nATTRS = ('data',)\nfrom .helpers import *\n\ndef count_matmul_flops(fn):\n" \
            "    return [getattr(torch.utils, a) for a in ATTRS]\n"
    sources = {"flops": flops, "helpers": "ATTRS = ('flop_counter',)\n"}
    assert [f.what for f in unwritten_lookups(sources, "flops", "count_matmul_flops")] == ["uses getattr"]
    assert unwritten_lookups({"flops": flops.replace("from .helpers import *\n", "")}, "flops",
                             "count_matmul_flops") == []


@pytest.mark.parametrize("name", sorted(WRITTEN))
def test_names_written_out_are_not_charged(name):
    sources = {"flops": "import torch\n\n_MATMULS = ()\n" + COUNTER + WRITTEN[name],
               # another module's table of torch's dtypes by name, imported by the package only: not flops' business
               "__init__": "from . import dtypes\n",
               "dtypes": "import torch\n\n_BY_NAME = {n: getattr(torch, n) for n in dir(torch) if n.startswith('float')}\n"}
    assert unwritten_lookups(sources, "flops", "count_matmul_flops") == []


# what must not count as torch's own counter, and what must, however it is named
from tests.test_part04_flops import _is_flop_counter  # noqa: E402


@pytest.mark.parametrize("name", ["torch.utils.flop_counter.FlopCounterMode", "torch.nn.functional.torch.utils."
                                  "flop_counter.FlopCounterMode", "numpy.torch.utils.flop_counter",
                                  "torch.nn.attention.varlen.flop_registry", "?.flop_counter.mm_flop", "?.mm_flop",
                                  "?.FlopCounterMode",
                                  "torch.profiler.profile", "torch.utils._runtime_estimation.RuntimeEstimator"])
def test_torchs_counter_is_found_however_reached(name):
    assert _is_flop_counter(name)


def test_torchs_counter_in_code_a_metaclass_runs_at_import_is_found():
    """An Enum's _generate_next_value_ runs as the class is made, though nothing names the class: what it
    puts in a table count_matmul_flops reads is torch's counter. A self-check's import of it is not."""
    from grader.harness.source import import_time_names

    hook = ("import enum\nimport torch\nfrom torch.utils.flop_counter import FlopCounterMode\n\n_C = {}\n\n"
            "class _K(enum.Enum):\n    def _generate_next_value_(name, start, count, last):\n"
            "        _C['m'] = FlopCounterMode\n        return name\n    M = enum.auto()\n\n"
            "def count_matmul_flops(fn):\n    return _C['m']\n")
    assert import_time_names({"flops": hook}, _is_flop_counter) == ["flops.py:9"]
    self_check = ("import torch\nfrom torch.utils.flop_counter import FlopCounterMode\n\n"
                  "def count_matmul_flops(fn):\n    return 0\n\nif __name__ == '__main__':\n"
                  "    with FlopCounterMode() as m:\n        pass\n")
    assert import_time_names({"flops": self_check}, _is_flop_counter) == []


def test_torchs_counter_is_found_through_a_local_named_self():
    """Only a method's own first parameter is the submission's object: a local merely named ``self`` is
    whatever it was bound to, here torch.utils through a subscript no reading names."""
    from grader.harness.source import package_names

    text = ("import torch\n\ndef count_matmul_flops(fn):\n    self = (torch.utils, 0)[0]\n"
            "    self = self.flop_counter\n    counter = self.FlopCounterMode(display=False)\n    return counter\n")
    assert "flops.py:6" in package_names({"flops": text}, "flops", "count_matmul_flops", _is_flop_counter)
    method = ("import torch\n\nclass _C:\n    def run(self, fn):\n        return self.FlopCounterMode\n\n"
              "def count_matmul_flops(fn):\n    return _C().run(fn)\n")
    assert package_names({"flops": method}, "flops", "count_matmul_flops", _is_flop_counter) == []


def test_torchs_counter_is_found_through_getattr_of_a_written_name():
    from grader.harness.source import package_names

    text = ("import torch\n\ndef count_matmul_flops(fn):\n"
            "    return getattr(getattr(torch.utils, 'flop_counter'), 'FlopCounterMode')(display=False)\n")
    assert package_names({"flops": text}, "flops", "count_matmul_flops", _is_flop_counter)


FLAGGED = ("import torch\nUSE_TORCH = False\n{extra}\ndef count_matmul_flops(fn):\n    if USE_TORCH:\n"
           "        from torch.utils.flop_counter import FlopCounterMode\n        return FlopCounterMode\n    return 0\n")


@pytest.mark.parametrize("extra, others", [
    ("from .helpers import *", {"helpers": "USE_TORCH = True\n"}),
    ("", {"gradients": "from . import flops\nflops.USE_TORCH = True\n"}),
    ("", {"gradients": "from . import flops\nsetattr(flops, 'USE_TORCH', True)\n"}),
], ids=["star import", "set from another module", "setattr from another module"])
def test_a_branch_under_a_flag_something_may_change_is_read(extra, others):
    """A branch under a flag bound once to False never runs, unless something may set the flag: a star import
    after it, or another module of the package. Then what it names is read (here, torch's counter)."""
    from grader.harness.source import package_names

    sources = {"__init__": "", "flops": FLAGGED.format(extra=extra), **others}
    assert package_names(sources, "flops", "count_matmul_flops", _is_flop_counter, []) == ["flops.py:7"]
    unchanged = {"__init__": "", "flops": FLAGGED.format(extra="")}  # a dead branch: not read
    assert package_names(unchanged, "flops", "count_matmul_flops", _is_flop_counter, []) == []


def test_a_scratch_script_nothing_imports_is_not_read():
    """A check script left beside flops.py runs when a student runs it, never when flops is imported; once
    the package imports it, it runs, and is read."""
    from grader.harness.source import import_time_names

    scratch = ("import torch\nfrom torch.utils.flop_counter import FlopCounterMode\nfrom assignment.flops import "
               "count_matmul_flops\n\nwith FlopCounterMode(display=False) as m:\n    count_matmul_flops(lambda: 0)\n")
    sources = {"flops": "def count_matmul_flops(fn):\n    return 0\n", "check_flops": scratch, "__init__": ""}
    assert import_time_names(sources, _is_flop_counter, "flops") == []
    sources["__init__"] = "from . import check_flops\n"
    assert import_time_names(sources, _is_flop_counter, "flops") == ["check_flops.py:5"]


@pytest.mark.parametrize("name", ["FlopCounterMode", "flops.FlopCounterMode", "torch.ops.aten.mm",
                                  "torch.utils._python_dispatch.TorchDispatchMode", "?.flops", "?.count",
                                  "?.flop_counter"])
def test_names_of_ones_own_are_not_torchs_counter(name):
    assert not _is_flop_counter(name)


# the reading of what count_matmul_flops runs: a name of the submission's own that ends in _flop (a tally, a
# method of its own named as one of torch's formulas) is no torch formula; torch's formula read off something
# the reading cannot name is
def _reads_of(flops_source: str) -> list[str]:
    from tests.test_part04_flops import _flop_counter_reads

    return _flop_counter_reads((("__init__", ""), ("flops", flops_source)))[0]


def test_a_name_of_its_own_ending_in_flop_is_no_torch_formula():
    reference = (ROOT / "reference" / "flops.py").read_text()
    assert _reads_of(reference) == []
    assert _reads_of(reference.replace("self.flops", "self.total_flop").replace("counter.flops", "counter.total_flop")) \
        == []
    own_formula = reference + "\n\nclass _Formulas:\n    def mm_flop(self, a, b):\n        return 0\n\n\n" \
        "def _via_own(fn):\n    return _Formulas().mm_flop(1, 2)\n"
    assert _reads_of(own_formula.replace("    return counter.flops", "    return counter.flops + _via_own(fn)")) == []


def test_torchs_formula_read_off_an_unnamed_object_is_torchs():
    reference = (ROOT / "reference" / "flops.py").read_text()
    unnamed = reference.replace("    return counter.flops",
                                "    tools = fn.__self__\n    return counter.flops + tools.mm_flop(1, 2)")
    assert _reads_of(unnamed) != []


def test_torch_s_counter_taken_from_a_sibling_is_read_as_torch_s():
    """flops.py taking FlopCounterMode from model.py, which imported it under a name of its own, counts with
    torch's counter as surely as an import of its own would."""
    from tests.test_part04_flops import _flop_counter_reads

    flops = ("def count_matmul_flops(fn):\n    from .model import _Tally\n    with _Tally(display=False) as c:\n"
             "        fn()\n    return c.get_total_flops()\n")
    model = "from torch.utils.flop_counter import FlopCounterMode as _Tally\n"
    used, _ = _flop_counter_reads(tuple(sorted({"flops": flops, "model": model, "__init__": ""}.items())))
    assert used, used


_SWAP = ("def swap(_yours):\n    def count_matmul_flops(fn):\n"
         "        from torch.utils.flop_counter import FlopCounterMode\n"
         "        with FlopCounterMode(display=False) as m:\n            fn()\n        return m.get_total_flops()\n"
         "    return count_matmul_flops\n")
_OWN = "def count_matmul_flops(fn):\n    return 0\n"


@pytest.mark.parametrize("flops", [
    # a decorator is read where the def stands: a parameter of the same name is not it
    "from .memory import swap as fn\n\n@fn\n" + _OWN,
    "from .memory import swap as fn\n\n" + _OWN + "\ncount_matmul_flops = fn(count_matmul_flops)\n",
    "from .memory import swap as counter\n\ndef count_matmul_flops(fn):\n    counter = 0\n    return counter\n\n"
    "count_matmul_flops = counter(count_matmul_flops)\n",
    # ... nor a local of a def nested in the function
    "from .memory import swap\n\ndef count_matmul_flops(fn):\n    @swap\n    def run(f):\n        swap = 0\n"
    "        return swap\n    return run(fn)\n",
    # a name bound twice: the decorator meets the binding of its moment, not the last
    _SWAP + "\n@swap\n" + _OWN + "\ndef swap(f):\n    return f\n",
    _SWAP + "\n" + _OWN + "\ncount_matmul_flops = swap(count_matmul_flops)\n\ndef swap(f):\n    return f\n",
])
def test_torch_s_counter_put_in_by_a_decorator_is_read_as_torch_s(flops):
    """``count_matmul_flops = fn(count_matmul_flops)`` (read as ``@fn``) with ``fn`` a sibling's function handing
    back torch's counter scored Part 4 10/10: the reading took ``fn`` for the function's own parameter."""
    from tests.test_part04_flops import _flop_counter_reads

    used, _ = _flop_counter_reads(tuple(sorted({"flops": flops, "memory": _SWAP, "__init__": ""}.items())))
    assert used, flops


_COUNT = ("    from torch.utils.flop_counter import FlopCounterMode\n    with FlopCounterMode(display=False) as m:\n"
          "        fn()\n    return m.get_total_flops()\n")


@pytest.mark.parametrize("flops", [
    # a decorator binding what it is handed as the module's `len`, which a reading takes for the builtin (round 46)
    "def count_matmul_flops(fn):\n    return len(fn)\n\ndef _as_len(f):\n    global len\n    len = f\n    return f\n\n"
    "@_as_len\ndef _count(fn):\n" + _COUNT,
    # ... or as a name bound to None at the top, or putting it in a table (a registry of formulas)
    "_HELPER = None\n\ndef count_matmul_flops(fn):\n    return _HELPER(fn)\n\ndef _keep(f):\n    global _HELPER\n"
    "    _HELPER = f\n    return f\n\n@_keep\ndef _count(fn):\n" + _COUNT,
    "_TABLE = {}\n\ndef count_matmul_flops(fn):\n    return _TABLE['count'](fn)\n\ndef register(name):\n"
    "    def put(f):\n        _TABLE[name] = f\n        return f\n    return put\n\n@register('count')\ndef _count(fn):\n"
    + _COUNT,
    # a wrapping decorator called with a function of its own hands it the decorated one: lru_cache(keep)(f) is
    # keep(f) (red team)
    "import functools\n\ndef count_matmul_flops(fn):\n    return len(fn)\n\ndef _as_len(f):\n    global len\n"
    "    len = f\n    return f\n\n@functools.lru_cache(_as_len)\ndef _count(fn):\n" + _COUNT,
    # a class handed to a decorator of its own: any of its methods may be kept
    "_TABLE = {}\n\ndef count_matmul_flops(fn):\n    return _TABLE['count'](fn)\n\ndef _keep(cls):\n"
    "    _TABLE['count'] = cls.count\n    return cls\n\n@_keep\nclass _Counter:\n    @staticmethod\n"
    "    def count(fn):\n" + _COUNT.replace("\n    ", "\n        ").replace("    from", "        from", 1),
])
def test_torch_s_counter_in_what_a_decorator_is_handed_is_read(flops):
    """A function handed to a decorator may be kept where count_matmul_flops reaches it, by no name a reading
    follows: it is read as code count_matmul_flops may run, called or not (each scored Part 4 10/10)."""
    from tests.test_part04_flops import _flop_counter_reads

    used, _ = _flop_counter_reads(tuple(sorted({"flops": flops, "__init__": ""}.items())))
    assert used, flops
    # in another module that the package imports, putting it into flops.py's namespace, the same
    helper = flops.replace("def count_matmul_flops(fn):\n    return len(fn)\n\n", "from . import flops as _f\n\n") \
        .replace("    len = f\n", "    _f.len = f\n").replace("    global len\n", "")
    if helper != flops:
        sources = {"flops": "def count_matmul_flops(fn):\n    return len(fn)\n", "_tally": helper,
                   "__init__": "from . import _tally\n"}
        used, _ = _flop_counter_reads(tuple(sorted(sources.items())))
        assert used, helper


@pytest.mark.parametrize("decorator", ["@functools.lru_cache(maxsize=None)", "@functools.cache", "@torch.no_grad()",
                                       "@contextlib.contextmanager", "@functools.lru_cache(maxsize=2 ** 4)",
                                       "@jaxtyping.jaxtyped(typechecker=typeguard.typechecked)"])
def test_a_self_check_a_wrapping_decorator_wraps_is_not_read(decorator):
    """A decorator that only wraps a function, handing the wrapper back under its name, keeps it nowhere else: a
    self-check so decorated, never called, is not read (as an undecorated one is not)."""
    from tests.test_part04_flops import _flop_counter_reads

    reference = (ROOT / "reference" / "flops.py").read_text()
    check = f"\n\nimport contextlib\nimport functools\n\nimport jaxtyping\nimport typeguard\n\n\n{decorator}\n" \
        "def _check_against_torch(fn):\n" + _COUNT
    assert _flop_counter_reads((("__init__", ""), ("flops", reference + check)))[0] == []
    assert _flop_counter_reads((("__init__", ""), ("flops", reference + check.replace(decorator, "@_mine"))))[0] != []


_MINE = ("from torch.utils._python_dispatch import TorchDispatchMode\n\nclass _Mine(TorchDispatchMode):\n"
         "    flops = 0\n\n    def __torch_dispatch__(self, func, types, args=(), kwargs=None):\n"
         "        return func(*args, **(kwargs or {}))\n\n")


@pytest.mark.parametrize("flops", [
    # a name local to a scope inside the function, spelled as the module's import of torch's counter (round 35)
    "from torch.utils.flop_counter import FlopCounterMode\n\n" + _MINE + "def count_matmul_flops(fn):\n" + body
    for body in [
        "    def run(FlopCounterMode):\n        with FlopCounterMode:\n            fn()\n"
        "        return FlopCounterMode.flops\n    return run(_Mine())\n",
        "    run = lambda FlopCounterMode: FlopCounterMode.flops\n    with _Mine() as m:\n        fn()\n"
        "    return run(m)\n",
        "    modes = [_Mine()]\n    with modes[0]:\n        fn()\n"
        "    return sum(FlopCounterMode.flops for FlopCounterMode in modes)\n",
    ]
])
def test_an_inner_scope_s_name_spelled_as_torch_s_counter_is_its_own(flops):
    from tests.test_part04_flops import _flop_counter_reads

    used, _ = _flop_counter_reads((("__init__", ""), ("flops", flops)))
    assert used == [], flops


@pytest.mark.parametrize("flops", [
    # a type-only import (never run) of torch's counter under a name a local of its own shadows
    "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from torch.utils.flop_counter import FlopCounterMode "
    "as counter\n\n" + _MINE + "def count_matmul_flops(fn):\n    counter = _Mine()\n    with counter:\n"
    "        fn()\n    return counter.flops\n",
    # a self-check's import at the top, a parameter of the same name
    "from torch.utils.flop_counter import FlopCounterMode as mode\n\n" + _MINE + "def count_matmul_flops(fn, mode=None):"
    "\n    mode = _Mine()\n    with mode:\n        fn()\n    return mode.flops\n",
    # a first draft of a helper left above the one that runs: a call at run time meets the last
    "def _count(fn):\n    from torch.utils.flop_counter import FlopCounterMode\n    with FlopCounterMode() as m:\n"
    "        fn()\n    return m.get_total_flops()\n\n" + _MINE + "def _count(fn):\n    with _Mine() as m:\n"
    "        fn()\n    return m.flops\n\ndef count_matmul_flops(fn):\n    return _count(fn)\n",
])
def test_names_of_its_own_beside_torch_s_counter_are_its_own(flops):
    """Honest code that names torch's counter where it never runs (round 34): a local shadows a module's name, and
    a function's body reads a helper's last definition."""
    from tests.test_part04_flops import _flop_counter_reads

    used, _ = _flop_counter_reads((("__init__", ""), ("flops", flops)))
    assert used == [], flops


_M = "from torch.utils.flop_counter import FlopCounterMode as M\n\n"


@pytest.mark.parametrize("flops", [
    # a name declared global: the module's, whatever a function may store there later
    _M + "def count_matmul_flops(fn):\n    global M\n    with M(display=False) as m:\n        fn()\n"
    "    return m.get_total_flops()\n",
    # ... in a nested def, the function around it binding the name too
    _M + "def count_matmul_flops(fn):\n    M = None\n\n    def run():\n        global M\n"
    "        with M(display=False) as m:\n            fn()\n        return m.get_total_flops()\n    return run()\n",
    # a class body in a function that binds the name reads it from the class, then the module: not the function's
    _M + "def count_matmul_flops(fn):\n    M = None\n\n    class K:\n        if False:\n            M = None\n"
    "        Mode = M\n    with K.Mode(display=False) as m:\n        fn()\n    return m.get_total_flops()\n",
    # a function's own names bound by a match capture or a comprehension's walrus: read at what they are bound to
    "import torch\n\ndef count_matmul_flops(fn):\n    match torch.utils:\n        case U:\n            pass\n"
    "    with U.flop_counter.FlopCounterMode(display=False) as m:\n        fn()\n    return m.get_total_flops()\n",
    "import torch\n\ndef count_matmul_flops(fn):\n    [(U := torch.utils) for _ in [0]]\n"
    "    with U.flop_counter.FlopCounterMode(display=False) as m:\n        fn()\n    return m.get_total_flops()\n",
    # a comprehension's target that only reads the name (an item stored into): no variable of the comprehension's
    _M + "def count_matmul_flops(fn):\n    box = {}\n    with [M(display=False) for box[M] in [0]][0] as m:\n"
    "        fn()\n    return m.get_total_flops()\n",
])
def test_torch_s_counter_read_through_python_s_scopes_is_read_as_torch_s(flops):
    """Round 35: Python reads these names from the module, where torch's counter is; the reading took each for
    the function's local (or gave up on a global, as if nothing were there)."""
    from tests.test_part04_flops import _flop_counter_reads

    used, _ = _flop_counter_reads((("__init__", ""), ("flops", flops)))
    assert used, flops


@pytest.mark.parametrize("module", ["flops", "memory"])
def test_torch_s_counter_imported_in_a_class_body_is_read_as_torch_s(module):
    """``class _Tools: from torch.utils.flop_counter import FlopCounterMode as Tally``, then ``self.Tally(...)``:
    the import binds an attribute of the class, read back through ``self`` where no name leads to it."""
    from tests.test_part04_flops import _flop_counter_reads

    tools = ("class _Tools:\n    from torch.utils.flop_counter import FlopCounterMode as Tally\n\n"
             "    def run(self, fn):\n        with self.Tally(display=False) as m:\n            fn()\n"
             "        return m.get_total_flops()\n")
    count = "def count_matmul_flops(fn):\n    return _Tools().run(fn)\n"
    sources = {"flops": tools + "\n" + count, "__init__": ""} if module == "flops" else \
        {"flops": "from .memory import _Tools\n\n" + count, "memory": tools, "__init__": ""}
    used, _ = _flop_counter_reads(tuple(sorted(sources.items())))
    assert used, module
    aliased = tools.replace("    from torch.utils.flop_counter import FlopCounterMode as Tally\n",
                            "    U = torch.utils\n    Tally = U.flop_counter.FlopCounterMode\n")
    used, _ = _flop_counter_reads((("__init__", ""), ("flops", "import torch\n" + aliased + "\n" + count)))
    assert used  # a class body's own name, read in the class body


@pytest.mark.parametrize("package", [{"__init__": "from torch.utils.flop_counter import *\n"},
                                     {"__init__": "from ._util import *\n",
                                      "_util": "from torch.utils.flop_counter import *\n"},
                                     {"__init__": "from torch.utils.flop_counter import *\n",  # (a module of that
                                      "FlopCounterMode": "NOTES = ()\n"}])  # name: the package's attribute wins
def test_torch_s_counter_only_a_star_import_binds_is_read_as_torch_s(package):
    """``from torch.utils.flop_counter import *`` in the package's ``__init__``, then ``from . import
    FlopCounterMode`` in flops.py, scored Part 4 10/10 counting with torch's counter."""
    from tests.test_part04_flops import _flop_counter_reads

    flops = ("from . import FlopCounterMode as Tally\n\ndef count_matmul_flops(fn):\n"
             "    with Tally(display=False) as c:\n        fn()\n    return c.get_total_flops()\n")
    used, unreadable = _flop_counter_reads(tuple(sorted({**package, "flops": flops}.items())))
    assert used, used



@pytest.mark.parametrize("init", ["from . import model as helper\n",
                                  # a decorator may bind the def's name to anything, a module among them
                                  "from . import model\n\n@lambda f: model\ndef helper():\n    pass\n"])
def test_torch_s_counter_in_a_module_taken_under_another_name_is_read(init):
    """``from . import model as helper`` in the package's ``__init__``, then ``helper.count_with(fn)`` in flops.py,
    with torch's FlopCounterMode in model.py's ``count_with``: Part 4 10/10 before, model.py's function unread."""
    from tests.test_part04_flops import _flop_counter_reads

    flops = "from . import helper\n\ndef count_matmul_flops(fn):\n    return helper.count_with(fn)\n"
    model = ("from torch.utils.flop_counter import FlopCounterMode\n\ndef count_with(fn):\n"
             "    with FlopCounterMode(display=False) as c:\n        fn()\n    return c.get_total_flops()\n")
    package = {"__init__": init, "flops": flops, "model": model}
    used, _ = _flop_counter_reads(tuple(sorted(package.items())))
    assert used, used


def test_a_function_whose_body_names_a_module_is_no_module_held():
    """flops.py star-importing its helper, whose count_matmul_flops returns ``counter.flops``: the def binds a
    function, not the module flops (read whole, with the helper's unused np.load, it cost Part 4 6/10)."""
    from tests.test_part04_flops import _flop_counter_reads

    impl = ("import numpy as np\n\nclass _Counter:\n    flops = 0\n\ndef count_matmul_flops(fn):\n"
            "    counter = _Counter()\n    fn()\n    return counter.flops\n\n"
            "def _saved_counts(path):\n    return np.load(path, allow_pickle=False)\n")
    package = {"__init__": "", "flops": "from ._impl import *\n", "_impl": impl}
    assert unwritten_lookups(package, "flops", "count_matmul_flops") == []
    assert _flop_counter_reads(tuple(sorted(package.items()))) == ([], [])

def test_the_function_counted_says_nothing_of_who_made_it():
    """A count_matmul_flops that branched on ``fn.__module__`` ("grader...") would count right only when graded."""
    fn = build_scenario([("mm", (2, 3, 4), (False, False))], False, 0)
    assert (fn.__module__, fn.__name__, fn.__qualname__) == ("__main__", "step", "step")
