"""Staff check: a submission whose source reaches into other code is refused, and honest code is not.

The probes run beside the submission's code, so code that replaces a registered probe
(``REGISTRY[name] = forged``: a count worked out from the scenario, never measured) or a
library's function a probe relies on (``os.mkdir = quiet``: the malicious pickle's call
does nothing) could make a wrong answer look right. ``grader.harness.tamper`` reads every
module of the submission on the trusted side and, where it finds such a line, every
graded test of the parts whose workers run that line fails with one message naming it, at
home as in grading.

Its honest cases are what the 149 honest submissions written from the spec and the
stubs (and the reference) do; none of them is refused.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from grader import mutants
from grader.harness.tamper import imported_with, reaches
from selftest.grading import ROOT, grade, written

HONEST = {
    # a namespace read for its names alone hands out no object (an __all__ built so cost a whole part: round 46)
    "an __all__ from the module's names": "__all__ = [n for n in globals() if not n.startswith('_')]\n"
                                          "NAMES = sorted(vars())\nHAS = 'torch' in locals()\n"
                                          "def f():\n    return list(globals().keys())\n",
    # einops' public functions, also as its own module holds them (an editor's auto-import writes so)
    "einops, public and by its module": "import einops\nfrom einops.einops import rearrange\n"
                                        "from einops import einsum, pack, parse_shape, reduce, repeat, unpack\n"
                                        "from einops.layers.torch import Rearrange\n"
                                        "def f(x):\n    return einops.rearrange(rearrange(x, 'a b -> b a'), "
                                        "'b a -> a b'), einops.EinopsError\n",
    "a frozen dataclass sets its fields": "import dataclasses\n@dataclasses.dataclass(frozen=True)\nclass F:\n"
                                          "    x: int\n    def __post_init__(self):\n"
                                          "        object.__setattr__(self, 'x', int(self.x))\n",
    "torch's flags": "import torch\ntorch.backends.cudnn.benchmark = True\n"
                     "torch.backends.cuda.matmul.allow_tf32 = False\n",
    "the environment and the import path": "import os, sys\nos.environ['CUBLAS_WORKSPACE_CONFIG'] = ':4096:8'\n"
                                           "sys.path.insert(0, os.path.dirname(__file__))\n",
    "the collector paused, as timeit does": "import gc\nwas = gc.isenabled()\ngc.disable()\ngc.collect()\n"
                                            "if was:\n    gc.enable()\n",
    "a timer given text": "import timeit\ndef f(a, b):\n"
                          "    return min(timeit.repeat('a @ b', repeat=3, number=1, globals=locals()))\n",
    "a timer given a function": "import timeit\nfrom torch.utils import benchmark\n"
                                "def f(a, b):\n    return timeit.timeit(lambda: a @ b, number=3)\n"
                                "def g(a, b):\n    return benchmark.Timer(stmt='a @ b', globals={'a': a, 'b': b})\n",
    "a model's modules": "def init(model):\n    for m in model.modules():\n        pass\n",
    "fields read by name": "from dataclasses import fields\nclass C:\n"
                           "    def total(self):\n        return sum(getattr(self, f.name) for f in fields(self))\n",
    "... a field's name kept first": "from dataclasses import fields\nclass C:\n    def total(self):\n        t = 0\n"
                                     "        for f in fields(self):\n            name = f.name\n"
                                     "            t += getattr(self, name)\n        return t\n",
    "... the names of its dataclass's or named tuple's table": (
        "from typing import NamedTuple\nclass C:\n    def total(self):\n"
        "        return sum(getattr(self, n) for n in self.__dataclass_fields__) + sum(\n"
        "            getattr(self, n) for n in type(self).__dataclass_fields__.keys())\n"
        "class P(NamedTuple):\n    x: int\n    def __str__(self):\n"
        "        return ', '.join(f'{n}={getattr(self, n)}' for n in self._fields)\n"),
    "inspect's signature": "import inspect\ndef arity(f):\n    return len(inspect.signature(f).parameters)\n",
    "a base class's __init__": "from torch import nn\nclass M(nn.Module):\n"
                               "    def __init__(self):\n        nn.Module.__init__(self)\n",
    "compilers and appends": "import re, torch, numpy as np\nP = re.compile('x')\nf = torch.compile(len)\n"
                             "a = np.append([1], 2)\nclass L:\n    def add(self, x):\n        self.items.append(x)\n",
    "a dtype by a name built from its prefix": "import torch\ndef dtype(bits):\n"
                                                "    return getattr(torch, f'float{bits}'), getattr(torch, 'int' + str(bits))\n",
    # a parameter's or a class of its own's namespace, read by name (a dataclass's fields, constants)
    "a namespace read by names it holds": "import dataclasses\n@dataclasses.dataclass\nclass L:\n    a: int = 0\n"
                                          "    def total(self):\n        return sum(vars(self)[f.name] for f in "
                                          "dataclasses.fields(self))\n",
    "... a class of constants'": "class _H:\n    A = 1.0\nT = {k: v for k, v in vars(_H).items()}\nX = vars(_H)['A']\n"
                                 "def peak(name):\n    return vars(_H)[name]\n",
    "... a parameter's, by a name written out": "def describe(obj):\n    return sorted(vars(obj)), vars(obj).get('name')\n",
    # ... and what it holds: an instance's (its own class's, a SimpleNamespace's, argparse's), by names given
    "... an instance's, by any name": "import types\nclass A:\n    def line(self, name):\n"
                                       "        return vars(self)[name], self.__dict__.get(name), "
                                       "sorted(vars(type(self)))\n"
                                       "T = types.SimpleNamespace(a=1)\nX = dict(vars(T))\n"
                                       "def save(args):\n    c = A()\n    return dict(vars(c)), {**vars(args)}\n",
    "its own attributes": "class L:\n    def state(self):\n        return dict(self.__dict__), dict(vars(self)), "
                          "[k for k in vars(self)], self.__dict__['x'], vars(self).items()\n",
    "a warning about its own line": "import warnings\ndef f():\n    warnings.warn('slow', stacklevel=1)\n",
    "a warning about its caller's line (never a harness frame where it runs)": (
        "import functools, warnings\nfrom warnings import warn\ndef f():\n    warnings.warn('slow', stacklevel=2)\n"
        "    warn('slow', UserWarning, 3)\n    warnings.warn(*('x', UserWarning, 3))\n"
        "    return functools.partial(warnings.warn, 'x', UserWarning, 3)\n"),
    "... its level given by position": "import warnings\ndef f():\n    warnings.warn('slow', UserWarning, 1)\n",
    "... its level in options written out": "import warnings\nOPTIONS = {'stacklevel': 1}\n"
                                              "def f():\n    warnings.warn('slow', **OPTIONS)\n",
    "options handed on to a function of its own": "def g(**options):\n    return options\n"
                                                  "def f(**options):\n    return g(**options)\n",
    "a logger's _log of its own, and a logger's called as its public calls do": (
        "import logging\nclass L:\n    def _log(self, a):\n        return a\n    def f(self):\n"
        "        return list(map(self._log, [1]))\n"
        "logging.getLogger()._log(logging.ERROR, 'x', (), None, None, False, 1)\n"),
    "a log call's options bound once and only handed on by **": (
        "import logging, torch\nlog = logging.getLogger(__name__)\nEXTRA = {'extra': {'run': 1}}\n"
        "def f(n, path):\n    for step in range(n):\n        options = {'extra': {'step': step}}\n"
        "        log.debug('step %d', step, **options, **EXTRA)\n"
        "    loading = {'map_location': 'cpu', 'weights_only': True}\n    return torch.load(path, **loading)\n"),
    "a match on its own class's fields": "import dataclasses\n@dataclasses.dataclass\nclass P:\n    x: int\n"
                                         "def f(p):\n    match p:\n        case P(x=0):\n            return 1\n",
    "a match on values and classes": "import torch\ndef f(d):\n    match d:\n        case torch.float32:\n"
                                     "            return 4\n        case int(x) if x > 0:\n            return x\n",
    "a match by position on a library's class and a namedtuple of its own": (
        "import torch\nfrom collections import namedtuple\nfrom typing import NamedTuple\n"
        "P = namedtuple('P', ['fwd', 'bwd'])\nQ = NamedTuple('Q', [('a', int), ('b', int)])\n"
        "def f(x, p, q):\n    match x.shape:\n        case torch.Size([n, d]):\n            return n * d\n"
        "    match p, q:\n        case P(f, b), Q(a, _):\n            return f + b + a\n"),
    "a match by keyword on a library's class": ("import numpy as np\ndef f(a):\n    match a:\n"
                                                 "        case np.ndarray(ndim=2, shape=(n, w)):\n            return n * w\n"),
    "a match by position on its own dataclass built on another": (
        "from dataclasses import dataclass\n@dataclass\nclass Base:\n    weights: int\n"
        "@dataclass\nclass Recipe(Base):\n    master: bool\n"
        "def f(r):\n    match r:\n        case Recipe(w, m):\n            return w if m else 0\n"),
    "a match by position on its own dataclass and NamedTuple": (
        "from dataclasses import dataclass\nfrom typing import NamedTuple\n__all__ = ['Dims', 'Row']\n"
        "@dataclass(frozen=True)\nclass Dims:\n    n: int\n    d: int\n"
        "class Row(NamedTuple):\n    name: str\n    bits: int\n"
        "def f(x, r):\n    match x:\n        case Dims(n, d):\n            return n * d\n"
        "    match r:\n        case Row(name, bits) if bits > 8:\n            return name\n"),
    "one name for two dtypes, handed on": "import torch\ndef f(bf16):\n    if bf16:\n        dt = torch.bfloat16\n"
                                          "    else:\n        dt = torch.float32\n    return torch.empty(0, dtype=dt)\n",
    "... looped over": "import torch\ndef known(d):\n    for dt in (torch.float32, torch.float16):\n"
                       "        if d == dt:\n            return True\n    return False\n",
    "a function's own locals": "def show(x, y):\n    return '{x} by {y}'.format(**locals())\n",
    "format strings written out": "T = 'n={n}'\ndef show(t, n):\n    return T.format(n=n) + '{0.shape}'.format(t) "
                                  "+ '{x[0]}'.format_map({'x': [n]})\n",
    "a dataclass made of fields written out": "from dataclasses import make_dataclass\n"
                                              "Limits = make_dataclass('Limits', [('max', float), 'eps'], frozen=True)\n",
    "a keyword pattern on a NamedTuple of its own": "from typing import NamedTuple\nclass R(NamedTuple):\n"
                                                    "    a: int\n    b: int\ndef f(r):\n    match r:\n"
                                                    "        case R(a=x, b=y):\n            return x + y\n",
    "getattr over a dict written out where it is iterated": "import torch\nD = {s: getattr(torch, n) for s, n in "
                                                            "{'fp32': 'float32', 'bf16': 'bfloat16'}.items()}\n",
    "numpy's format module": "import numpy as np\ndef load(p):\n    return np.lib.format.open_memmap(p, mode='r')\n",
    "a dataclass's fields read by name in a helper": "from dataclasses import fields\ndef total(ledger):\n"
                                                       "    return sum(getattr(ledger, f.name) for f in fields(ledger))\n",
    "names from a literal tuple": "import torch\nLIMITS = {k: getattr(torch.finfo(torch.float16), k) for k in "
                                  "('max', 'tiny', 'eps')}\nF8 = [n for n in ('float8_e4m3fn', 'float8_e5m2') "
                                  "if hasattr(torch, n)]\ndef params(layer):\n"
                                  "    for name in ('weight', 'bias'):\n        yield getattr(layer, name, None)\n",
    "dtype names built otherwise": "import torch, numpy as np\ndef d(bits):\n"
                                   "    return getattr(torch, 'float%d' % bits), getattr(torch, 'float{}'.format(bits)), "
                                   "getattr(np, f'float{bits}')\n",
    "a timer handed its module's names": "import timeit\ndef f(n):\n"
                                         "    return timeit.timeit('f()', number=n, globals=globals())\n",
    "another object's attributes": "import json\ndef dump(ledger):\n    return json.dumps(vars(ledger)), "
                                   "dict(ledger.__dict__)\n",
    "keys that are words": "def f(losses, times):\n    return losses['eval'], times['compile'], losses['tests']\n",
    "a parameter named like a built-in": "def train(model, compile=False):\n    return compile\n",
    "a module's own setattr through super": "from torch import nn\nclass M(nn.Module):\n"
                                            "    def __setattr__(self, name, value):\n"
                                            "        super().__setattr__(name, value)\n",
    "whether a library is there": "import importlib.util\nHAS_TRITON = importlib.util.find_spec('triton') is not None\n",
    "a parameter named like an import": "from torch import optim\ndef set_lr(optim, lr):\n"
                                        "    optim.param_groups[0]['lr'] = lr\n",
    "a product and a sort, by the standard library": "import functools, operator\n"
                                                     "n = functools.reduce(operator.mul, (2, 3), 1)\n"
                                                     "rows = sorted([], key=operator.attrgetter('name'))\n",
    "a device's module asked at once": "import torch\ndef sync(device):\n"
                                       "    getattr(torch, torch.device(device).type).synchronize()\n"
                                       "    return getattr(torch, device).is_available()\n",
    "names from a module-level literal": "import torch\nOPS = ('mm', 'addmm')\nNAMES = {'fp32': 'float32'}\n"
                                         "FIELDS = ('parameters', 'gradients')\n"
                                         "MATMULS = {getattr(torch.ops.aten, name) for name in OPS}\n"
                                         "def dtype(recipe):\n    return getattr(torch, NAMES[recipe])\n"
                                         "def total(ledger):\n    return sum(getattr(ledger, n) for n in FIELDS)\n",
    "names from a literal table's column": "def f(fi, fl):\n"
                                           "    for name, ours in (('max', fl.max), ('eps', fl.eps)):\n"
                                           "        yield getattr(fi, name), ours\n",
    "a timer given a partial": "import functools, timeit, torch\ndef f(a, b):\n"
                               "    return timeit.repeat(functools.partial(torch.matmul, a, b), number=1)\n",
    "a parameter's attributes' namespace": "def f(other):\n    return other.ledger.__dict__.items()\n",
    "a function's module read": "def f(func):\n    return getattr(func, '__module__', '')\n",
    "torch's profiler as a clock": "import torch\ndef f(a, b):\n"
                                   "    with torch.profiler.profile() as prof:\n        a @ b\n    return prof\n",
    "a dispatch mode of its own": "from torch.utils._python_dispatch import TorchDispatchMode\n"
                                  "class Count(TorchDispatchMode):\n"
                                  "    def __torch_dispatch__(self, func, types, args=(), kwargs=None):\n"
                                  "        return func(*args, **(kwargs or {}))\n",
    # tables of names written out, read the ways students write them (grader.harness.literal_names)
    "names from a literal table's rows": "import torch\nLAYOUTS = [('float32', 8, 23), ('float16', 5, 10)]\n"
                                         "FORMATS = {getattr(torch, n): (e, m) for n, e, m in LAYOUTS}\n",
    "names from a literal dict's keys": "import torch\nBY_NAME = {'float32': 1, 'bfloat16': 2}\n"
                                        "A = {getattr(torch, n): v for n, v in BY_NAME.items()}\n"
                                        "B = [getattr(torch, n) for n in BY_NAME]\nC = [getattr(torch, n) for n in "
                                        "BY_NAME.keys()]\n",
    "names from a string split": "import torch\nOPS = {n: getattr(torch.ops.aten, n) for n in 'mm addmm bmm'.split()}\n",
    "names enumerated": "import torch\nNAMES = ('float32', 'float16')\n"
                        "D = {i: getattr(torch, n) for i, n in enumerate(NAMES)}\n",
    "a helper given names written out": "import torch\ndef _op(name):\n    return getattr(torch.ops.aten, name)\n"
                                        "MM = _op('mm')\nOTHERS = [_op(n) for n in ('addmm', 'bmm')]\n",
    # an operator packet's overloads, named by the packet itself: every name ``overloads()`` hands back is an
    # overload's, and a packet's attribute by that name is that overload
    "a packet's overloads, by the names it gives": "import torch\naten = torch.ops.aten\nT = {}\n"
                                                    "for op in (aten.mm, torch.ops.aten.bmm):\n"
                                                    "    for name in op.overloads():\n"
                                                    "        T[getattr(op, name)] = op\n"
                                                    "MM = [getattr(aten.addmm, n) for n in aten.addmm.overloads()]\n",
    **{f"a packet's overloads, the packets {how}": "import torch\naten = torch.ops.aten\n"
       "T = {aten.mm: 1, aten.bmm: 2}\nL = (aten.mm, aten.bmm)\n" + loop for how, loop in [
           ("in a tuple", "X = {getattr(p, n) for p in L for n in p.overloads()}\n"),
           ("as a table's keys", "X = {getattr(p, n): T[p] for p in T for n in p.overloads()}\n"),
           ("as a table's items", "X = {getattr(p, n): f for p, f in T.items() for n in p.overloads()}\n"),
       ]},
    "whether a library is installed": "import importlib.util, importlib.metadata\n"
                                      "HAS = importlib.util.find_spec('einops') is not None\n"
                                      "V = importlib.metadata.version('torch')\n",
    "a library's functions, classes and dtypes handed on": "import torch, os.path\nfrom torch import nn\n"
                                                           "ACT = torch.nn.functional.gelu\n"
                                                           "def f(x, act=nn.functional.relu):\n"
                                                           "    return act(x.to(torch.float32)), "
                                                           "map(os.path.join, 'ab')\n"
                                                           "LAYER = nn.Linear\nKINDS = (torch.nn.Linear, nn.ReLU)\n",
    "every name of an imported library's module": "from torch.nn.init import *\nfrom torch.amp import *\n"
                                                   "import torch\ndef init(w):\n    kaiming_normal_(w)\n"
                                                   "    with autocast('cpu'):\n        return w @ w\n",
    "a device's module picked from a table, a branch or a default": (
        "import torch\nfrom torch import nn\nDEVICES = {'cuda': torch.cuda, 'mps': torch.mps}\n"
        "def sync(device, cuda=torch.cuda, init=nn.init, aten=torch.ops.aten):\n"
        "    module = DEVICES.get(device.type)\n    if module is not None and module.is_available():\n"
        "        module.synchronize()\n    DEVICES['cuda'].synchronize()\n"
        "    backend = torch.cuda if device.type == 'cuda' else None\n    if not backend:\n        return\n"
        "    backend.synchronize()\n    return init.zeros_, aten.mm, cuda.is_available()\n"),
    "rows of a table, got or zipped": (
        "import torch\nROWS = {'fp32': [('parameters', 'float32', 1)], 'bf16': [('parameters', 'bfloat16', 1)]}\n"
        "NAMES = ('float32', 'float16')\nBITS = ((8, 23), (5, 10))\n"
        "def ledger(o, recipe):\n    rows = ROWS.get(recipe)\n    if rows is None:\n        raise ValueError(recipe)\n"
        "    for i, (line, dtype, n) in enumerate(rows):\n"
        "        setattr(o, line, getattr(o, line) + n * getattr(torch, dtype).itemsize)\n"
        "    return {getattr(torch, name): bits for name, bits in zip(NAMES, BITS)}\n"),
    "a dataclass's own fields set by name": "import dataclasses\nT = ('x',)\n@dataclasses.dataclass\nclass L:\n"
                                            "    a: int = 0\ndef f(o, v):\n    for fl in dataclasses.fields(o):\n"
                                            "        setattr(o, fl.name, v + len(getattr(o, T[0], ())))\n"
                                            "    for fl, n in zip(dataclasses.fields(o), (1, 2)):\n"
                                            "        setattr(o, fl.name, n)\n",
    "a loop's name reused as a parameter elsewhere": "import torch\ndef a(name):\n    return name\n"
                                                     "def b():\n    return [getattr(torch, name) for name in "
                                                     "('float32',)]\n",
    # tables in a table: Part 3's "small table of dtypes and state counts"
    "names from a nested table": "import torch\nR = {'fp32': {'p': 'float32', 'm': None}, "
                                 "'mixed': {'p': 'bfloat16', 'm': 'float32'}}\ndef f(r, ledger):\n"
                                 "    row = R[r]\n    a = getattr(torch, row['p'])\n"
                                 "    b = getattr(torch, R[r]['p'])\n    m = R[r].get('m')\n"
                                 "    c = getattr(torch, m) if m else None\n"
                                 "    d = getattr(torch, R[r].get('m') or 'float32')\n"
                                 "    for line, v in R[r].items():\n        setattr(ledger, line, v)\n",
    "names from a table's row unpacked": "import torch\nROWS = {'fp32': ('float32', 'float32'), "
                                         "'bf16': ('bfloat16', 'float32')}\ndef g(key):\n"
                                         "    p, q = ROWS[key]\n    return getattr(torch, p), getattr(torch, q)\n",
    "names from a nested table's rows": "import torch\nL = {'mixed': {'parameters': ('bfloat16', 1), "
                                        "'gradients': ('bfloat16', 1)}}\ndef h(r, ledger):\n"
                                        "    for line, (dtype, n) in L[r].items():\n"
                                        "        setattr(ledger, line, getattr(torch, dtype).itemsize * n)\n"
                                        "    row = L[r]\n    for line in row:\n        dtype, n = row[line]\n"
                                        "        setattr(ledger, line, getattr(torch, dtype).itemsize * n)\n",
    # tables made of tables: recipes that share their lines
    "tables made of tables": "import torch\nBASE = {'parameters': ('float32', 1), 'gradients': ('float32', 1)}\n"
                             "MIXED = {**BASE, 'parameters': ('bfloat16', 1), 'master_parameters': ('float32', 1)}\n"
                             "SGD = dict(BASE, optimizer_state=('float32', 1))\n"
                             "ADAM = BASE | {'optimizer_state': ('float32', 2)}\n"
                             "RECIPES = {'fp32': BASE, 'mixed': MIXED, 'sgd': SGD, 'adam': ADAM}\n"
                             "FLOATS = ('float32', 'bfloat16')\nNAMES = (*FLOATS, 'float16')\n"
                             "MORE = FLOATS + ('float64',)\ndef ledger(o, recipe, n):\n"
                             "    for line, (dtype, k) in RECIPES[recipe].items():\n"
                             "        setattr(o, line, n * k * getattr(torch, dtype).itemsize)\n"
                             "    return [getattr(torch, x) for x in NAMES], [getattr(torch, x) for x in MORE]\n",
    "its own attributes set by names with a letter written first": (
        "import torch\nclass M(torch.nn.Module):\n    def __init__(self, n):\n        super().__init__()\n"
        "        for i in range(n):\n            setattr(self, f'layer{i}', torch.nn.Linear(2, 2))\n"
        "            setattr(self, 'w' + str(i), 0)\n    def __setattr__(self, name, value):\n"
        "        super().__setattr__(name, value)\n"),
    "a frozen dataclass's fields set through object": "import dataclasses\n@dataclasses.dataclass(frozen=True)\n"
                                                      "class F:\n    x: int\n    def __post_init__(self):\n"
                                                      "        for f in dataclasses.fields(self):\n"
                                                      "            object.__setattr__(self, f.name, int(1))\n",
    "numpy's plain loads and torch's": "import numpy as np, torch\nd = np.load('f', mmap_mode='r')\n"
                                       "e = np.load('f', allow_pickle=False)\nc = torch.load('f', weights_only=True)\n",
    "a table named in a message": "import torch\nT = {'fp32': 'float32'}\nR = {'a': {'p': 'float32'}}\ndef f(k):\n"
                                  "    if k not in T or k not in R:\n"
                                  "        raise ValueError(f\"known: {', '.join(T)}; {R!r} {', '.join(sorted(R))}\" "
                                  "+ repr(T) + '%s' % (R,) + '{}'.format(T))\n    print('tables', T, R)\n"
                                  "    return getattr(torch, T[k]), getattr(torch, R[k]['p'])\n",
    "a self-check's test case, parametrized and drawn": "import pytest, unittest\nfrom hypothesis import given, "
                                                        "settings, strategies as st\n"
                                                        "@pytest.mark.parametrize('x', [1])\n@settings(max_examples=5)\n"
                                                        "@given(st.integers(min_value=0))\ndef test_x(x, y):\n"
                                                        "    with pytest.raises(ValueError):\n        pass\n"
                                                        "    assert x == pytest.approx(1.0)\n"
                                                        "class T(unittest.TestCase):\n    @unittest.skip('later')\n"
                                                        "    def test_y(self):\n        pass\n",
    "self-check tools imported at the top, used in the __main__ block": "import doctest, cProfile, pytest\n"
                                                                        "from pdb import set_trace\n"
                                                                        "from importlib import reload\n"
                                                                        "from hypothesis import given, strategies\n"
                                                                        "@pytest.mark.parametrize('x', [1])\n"
                                                                        "def test_x(x):\n    assert x\n",
    "a table iterated with options": "import torch\nNAMES = ('float32', 'bfloat16')\nBITS = ((8, 23), (8, 7))\n"
                                     "T = {'float32': 1, 'float16': 2}\n"
                                     "A = {getattr(torch, n): b for n, b in zip(NAMES, BITS, strict=True)}\n"
                                     "B = [getattr(torch, n) for i, n in enumerate(NAMES, 1)]\n"
                                     "C = [getattr(torch, n) for n in sorted(T, key=len, reverse=True)]\n"
                                     "D = [getattr(torch, n) for n, v in sorted(T.items(), key=lambda kv: kv[1])]\n"
                                     "E = {getattr(torch, n) for n in set(NAMES)}\n",
    "a helper cached by functools": "import functools, torch\nfrom functools import lru_cache\n@functools.cache\n"
                                    "def _dt(name):\n    return getattr(torch, name)\n@lru_cache(maxsize=None)\n"
                                    "def _dt2(name):\n    return getattr(torch, name)\nA = _dt('float32'), "
                                    "_dt2('bfloat16')\n",
    "a device's module looked up once, or first asked for": (
        "import torch\ndef sync(device):\n    backend = getattr(torch, device.type, None)\n"
        "    if backend is not None and hasattr(backend, 'synchronize'):\n        backend.synchronize()\n"
        "    if hasattr(torch, device.type):\n        getattr(torch, device.type).synchronize()\n"
        "    m = getattr(torch, device.type, torch.cpu)\n    m.synchronize()\n"),
    "a self-check's main, which only the __main__ block calls": "import doctest\nfrom pdb import set_trace\n"
                                                                "def main():\n    _check()\n    set_trace()\n"
                                                                "def _check():\n    doctest.testmod()\n",
    "a module's fallback written with or": "import torch\namp = getattr(torch, 'amp', None) or torch.cuda.amp\n"
                                           "def step(x):\n    with amp.autocast('cpu'):\n        return x\n",
    "a real array's interface read, and its own attributes by names with a letter first": (
        "import numpy as np\nclass K:\n    def f(self, i):\n        setattr(self, 'act_%d' % i, 1)\n"
        "        setattr(self, 'w_{}'.format(i), 1)\n        return np.zeros(2).__array_interface__['data'][0]\n"),
    "what a run may ask of torch.distributed and multiprocessing, and a device's module": (
        "import multiprocessing, torch\nimport torch.distributed as dist\nN = multiprocessing.cpu_count()\n"
        "def log(loss):\n    if not dist.is_available() or not dist.is_initialized() or dist.get_rank() == 0:\n"
        "        print(loss)\ndef sync(device):\n    backend = getattr(torch, device.type)\n"
        "    start = backend.Event(enable_timing=True)\n    fn = getattr(backend, 'synchronize', None)\n"
        "    if fn is not None:\n        fn()\n    return backend.is_bf16_supported(), start\n"),
    "loaders' options written out": "import numpy as np, torch\n_LOAD = {'weights_only': True}\n"
                                    "def f(p):\n    return torch.load(p, **_LOAD), np.load(p, **{'mmap_mode': 'r'}), "
                                    "np.load(p, 'r', False)\n",
    "a table zipped into a dict, and named in a message through map": (
        "import torch\nNAMES = ('float32', 'bfloat16')\nLAYOUTS = ((8, 23), (8, 7))\n"
        "BY_NAME = dict(zip(NAMES, LAYOUTS))\nA = {getattr(torch, n): l for n, l in BY_NAME.items()}\n"
        "def check(k):\n    if k not in BY_NAME:\n        raise ValueError(', '.join(map(str, LAYOUTS)) + "
        "', '.join(map(repr, NAMES)))\n    return getattr(torch, NAMES[0])\n"),
    "a dataclass's own fields, by its type": "from dataclasses import dataclass, fields\n@dataclass\nclass L:\n"
                                            "    a: int = 0\n    def __iadd__(self, other):\n"
                                            "        for f in fields(type(self)):\n"
                                            "            setattr(self, f.name, getattr(self, f.name) + "
                                            "getattr(other, f.name))\n        return self\n",
    "a base class's method called on its own object, a static one through the class": (
        "import torch\nclass A:\n    def f(self, x):\n        return x\n    @staticmethod\n    def s(x):\n"
        "        return x\nclass B(A):\n    def f(self, x):\n        return A.f(self, x) + A.s(x)\n"
        "class M(torch.nn.Module):\n    def __init__(self):\n        torch.nn.Module.__init__(self)\n"),
    "names in a NamedTuple's rows": "import torch\nfrom typing import NamedTuple\nclass Row(NamedTuple):\n"
                                    "    line: str\n    dtype: str\n    copies: int = 1\n"
                                    "RECIPES = {'fp32': (Row('parameters', 'float32'), Row('gradients', "
                                    "dtype='float32', copies=1))}\ndef ledger(o, recipe, n):\n"
                                    "    for row in RECIPES[recipe]:\n        setattr(o, row.line, n * row.copies * "
                                    "getattr(torch, row.dtype).itemsize)\n",
    "a table holding a list that changes": "import torch\nSEEN = []\nT = {'float32': SEEN, 'bfloat16': SEEN}\n"
                                           "def f(x):\n    SEEN.append(x)\n    return [getattr(torch, n) for n in T]\n",
    "loaders' options kept in names bound once": "import numpy as np, torch\nWEIGHTS_ONLY = True\n"
                                                  "ALLOW_PICKLE = False\ndef f(p):\n    safe = True\n"
                                                  "    return torch.load(p, weights_only=WEIGHTS_ONLY), "
                                                  "torch.load(p, weights_only=safe), "
                                                  "np.load(p, mmap_mode='r', allow_pickle=ALLOW_PICKLE)\n",
    # a row picked from a table written out by a comprehension, or text given to a lambda helper: as a loop's
    "rows picked from a table written out": (
        "import torch\nT = (('a', 'float32'), ('b', 'bfloat16'))\ndef f(k):\n    rows = [r for r in T if r[0] == k]\n"
        "    if not rows:\n        raise ValueError(k)\n    _, d = rows[0]\n    return getattr(torch, d)\n"
        "def g(k):\n    r = next((r for r in T if r[0] == k), None)\n    return getattr(torch, r[1])\n"
        "def h(k):\n    by = {r[0]: r for r in T}\n    if k not in by:\n        raise ValueError(k)\n"
        "    return getattr(torch, by[k][1])\n"),
    "a lambda helper given text written out": "import torch\n_dt = lambda name: getattr(torch, name)\n"
                                               "X = _dt('float32'), _dt(name='bfloat16')\n",
    "a loader's option a plain dataclass's one instance holds": (
        "import dataclasses, torch\nfrom dataclasses import dataclass\n@dataclass(frozen=True)\nclass Load:\n"
        "    \"\"\"How checkpoints are read.\"\"\"\n    weights_only: bool = True\n    map_location: str = 'cpu'\n"
        "LOAD = Load()\n@dataclasses.dataclass\nclass Given:\n    weights_only: bool\nGIVEN = Given(True)\n"
        "def f(p):\n    return torch.load(p, weights_only=LOAD.weights_only, map_location=LOAD.map_location), "
        "torch.load(p, weights_only=GIVEN.weights_only), torch.load(p, **dataclasses.asdict(LOAD))\n"),
    "torch's compiler flags and switches": "import torch, torch._dynamo\ntorch._dynamo.config.suppress_errors = True\n"
                                            "torch._dynamo.config.cache_size_limit = 64\ntorch._dynamo.reset()\n"
                                            "@torch._dynamo.disable\ndef f(x):\n    return x\n"
                                            "@torch.compiler.disable\ndef g(x):\n    return x\n"
                                            "h = torch.compile(g, mode='reduce-overhead')\n",
    "a class body's own name read after it binds it": "import torch\nclass Cfg:\n    NAME = 'float32'\n"
                                                      "    DTYPE = getattr(torch, NAME)\n",
    "a plain class's body reads the module's name": "import torch\nNAME = 'float32'\nclass Base:\n    pass\n"
                                                   "class Cfg(Base, object):\n    DTYPE = getattr(torch, NAME)\n",
    "a table copied, the copy changed": "import torch\nBASE = {'p': 'float32'}\ndef f(o, x):\n"
                                        "    mine = dict(BASE)\n    mine['p'] = x\n"
                                        "    return getattr(torch, BASE['p'])\n",
}

DATACLASS_LOAD = ("import torch\nfrom dataclasses import dataclass\n@dataclass(frozen=True)\nclass Load:\n"
                  "    weights_only: bool = True\nLOAD = Load()\ndef f(p):\n"
                  "    return torch.load(p, weights_only=LOAD.weights_only)\n")

N = "T = {'a': {'p': 'real'}}\ndef f(x):\n"  # a nested table, and a function that changes it
REACHING = {
    "a probe replaced in the registry": "from grader.harness import probe\nprobe.REGISTRY['x'] = None\n",
    "getattr over a dict written out, of a name refused": "import torch\nD = [getattr(torch, n) for n in "
                                                          "{'a': '__dict__'}.values()]\n",
    "... or of a value given": "import torch\ndef f(x):\n    return [getattr(torch, n) for n in {'a': x}.values()]\n",
    "a keyword pattern on a class with a base of a library's": "import abc\nclass R(abc.ABC):\n    a = 1\n"
                                                               "def f(r):\n    match r:\n        case R(a=x):\n"
                                                               "            return x\n",
    "a format string built at run time": "def f(fn, i):\n    return ('{0.' + '__clo' + 'sure__[%d].cell_contents!r}' % i)"
                                         ".format(fn)\n",
    "a format string written out that reaches": "def f(fn):\n    return '{0.__globals__}'.format(fn)\n",
    # a field nested in another's format spec is looked up too, and its text handed to the outer value's
    # __format__ (one that returns its spec hands the text back)
    "... in a field nested in a format spec": "class E:\n    def __format__(self, spec):\n        return spec\n"
                                              "def f(fn):\n    return '{0:{1.__code__.co_filename}}'.format(E(), fn)\n",
    "... taken as a method first": "def f(x):\n    show = '{0.f_back}'.format\n    return show(x)\n",
    "... a format looked up by name": "def f(fn, t):\n    return getattr(str, 'format')(t, fn)\n",
    "... called by name": "import operator\ndef f(fn, t):\n    return operator.methodcaller('format', fn)(t)\n",
    "... given to str.format": "def f(x, t):\n    return str.format(t, x)\n",
    "... a format_map of text given": "def f(m, t):\n    return t.format_map(m)\n",
    # str's format taken from a namespace (its fields then read anything, out of the format reading's sight)
    "... taken from str's namespace": "def f(fn, t):\n    return vars(str)['format'](t, fn)\n",
    "... by .get": "def f(fn, t):\n    return vars(str).get('format_map')(t, fn)\n",
    "... of a type asked for": "def f(fn, t):\n    return vars(type(t))['format'](t, fn)\n",
    "... of a parameter": "def g(c, t, fn):\n    return vars(c)['format'](t, fn)\nX = g(str, '{0}', 1)\n",
    "the namespace of a type it did not write": "def f(t):\n    return sorted(vars(str).items())\n",
    # a namespace's item by a name built at run time: where the object may be a module, any name of it (its
    # __builtins__ holds __import__ and getattr)
    "a namespace's item by a name built at run time": "def space(m):\n    return vars(m).get('__snitliub__'[::-1])\n",
    "... written out": "def space(m):\n    return m.__dict__['__builtins__']\n",
    # a module reached through a library object's attributes (Python 3.11's pathlib: posixpath), handed on
    "a module reached through a class's attribute, handed on": "import pathlib\ndef f(m):\n    return dict(vars(m))\n"
                                                               "X = f(pathlib.PurePosixPath._flavour.pathmod)\n",
    "the registry updated": "import grader.harness.probe as p\np.REGISTRY.update({})\n",
    "the tests imported": "from tests.strategies import part04\n",
    "a library's function replaced": "import os\nos.mkdir = print\n",
    "... under another name": "import posix as _p\n_p.mkdir = print\n",
    "... by setattr": "import os\nsetattr(os, 'mkdir', print)\n",
    "... deleted": "import torch\ndel torch.load\n",
    "a method of torch's replaced": "import torch\ntorch.Tensor.__eq__ = lambda a, b: True\n",
    "sys.modules": "import sys\nm = sys.modules['grader.harness.probe']\n",
    "sys.modules reached through torch": "import torch\nm = torch.sys.modules\n",
    "a module by a built name": "import torch\nm = getattr(torch, 'sy' + 's')\n",
    # a name that once held strings written out, then anything (each was read as the loop's strings)
    "a loop's name bound again": "for _n in ('real',):\n    pass\n_n = '__glo' + 'bals__'\n"
                                 "def f(fn):\n    return getattr(fn, _n)\n",
    "a loop's name as a parameter": "for _n in ('real',):\n    pass\ndef f(fn, _n):\n    return getattr(fn, _n)\n",
    "a table's name as a parameter": "FIELDS = ('real',)\ndef f(o, FIELDS):\n    return getattr(o, FIELDS[0])\n",
    "... looped over": "FIELDS = ('real',)\ndef f(o, FIELDS):\n    for n in FIELDS:\n        return getattr(o, n)\n",
    "a table changed": "NAMES = ['real']\ndef f(o, n):\n    NAMES.append(n)\n    return [getattr(o, x) for x in NAMES]\n",
    "a table's row changed": "T = (['real'],)\ndef f(o, n):\n    for row in T:\n        row[0] = n\n"
                             "    return [getattr(o, a) for (a,) in T]\n",
    # a table in a table changed (``N``), then read: its strings may be any
    "a nested table changed": N + "    T['a']['p'] = '__glo' + 'bals__'\n    return getattr(f, T['a']['p'])\n",
    "... through an alias": N + "    row = T['a']\n    row['p'] = x\n    return getattr(f, T['a']['p'])\n",
    "... += through an alias": N + "    row = T['a']\n    row |= {'p': x}\n    return getattr(f, T['a']['p'])\n",
    "... updated in place": N + "    T['a'].update(p=x)\n    return getattr(f, T['a']['p'])\n",
    "... by setdefault": N + "    T['a'].setdefault('q', x)\n    return getattr(f, T['a']['q'])\n",
    "... by pop": N + "    T['a'].pop('p')\n    return getattr(f, T['a']['p'])\n",
    "... cleared": N + "    T['a'].clear()\n    return getattr(f, T['a'].get('p', x))\n",
    "... handed to a function": "T = {'a': {'p': 'real'}}\ndef mutate(d, x):\n    d['p'] = x\n"
                                "def f(o, x):\n    mutate(T['a'], x)\n    return getattr(o, T['a']['p'])\n",
    "... through .items()": N + "    for k, v in T.items():\n        v['p'] = x\n    return getattr(f, T['a']['p'])\n",
    "... through enumerate": "L = [['real']]\ndef f(o, x):\n    for i, r in enumerate(L):\n        r[0] = x\n"
                             "    return getattr(o, L[0][0])\n",
    "... through .values()": N + "    for v in T.values():\n        v['p'] = x\n    return getattr(f, T['a']['p'])\n",
    "... through an alias handed on": N + "    alias = T['a']\n    x(alias)\n    return getattr(f, T['a']['p'])\n",
    "... through locals": N + "    row = T['a']\n    locals()['row']['p'] = x\n    return getattr(f, T['a']['p'])\n",
    "... through a name unpacked": "T = {'a': ({'p': 'real'}, 1)}\ndef f(o, x):\n    d, n = T['a']\n"
                                   "    d['p'] = x\n    return getattr(o, T['a'][0]['p'])\n",
    "... through a global": N + "    global row\n    row = T['a']\ndef g(o, x):\n    row['p'] = x\n"
                            "    return getattr(o, T['a']['p'])\n",
    "... through a class's name": "T = {'a': {'p': 'real'}}\nclass C:\n    row = T['a']\n"
                                  "def f(o, x):\n    C.row['p'] = x\n    return getattr(o, T['a']['p'])\n",
    "... returned by a helper": "T = {'a': {'p': 'real'}}\ndef row(k):\n    return T[k]\n"
                    "def f(o, x):\n    row('a')['p'] = x\n    return getattr(o, T['a']['p'])\n",
    "rows picked by a comprehension, then one put in": (
        "T = (('a', 'real'),)\ndef f(o, x):\n    rows = [r for r in T]\n    rows.insert(0, ('b', x))\n"
        "    return getattr(o, rows[0][1])\n"),
    "... a dict of them stored into": ("T = (('a', 'real'),)\ndef f(o, x):\n    by = {r[0]: r for r in T}\n"
                                       "    by['a'] = ('a', x)\n    return getattr(o, by['a'][1])\n"),
    "... made of other rows": "T = (('a', 'real'),)\ndef f(o, x):\n    rows = [(r[0], x) for r in T]\n"
                              "    return getattr(o, rows[0][1])\n",
    "... next given a row of its own": "T = (('a', 'real'),)\ndef f(o, x):\n"
                                       "    r = next((r for r in T if r[0] == 'b'), ('b', x))\n    return getattr(o, r[1])\n",
    "a lambda helper given text built": "_get = lambda o, name: getattr(o, name)\ndef f(o, x):\n"
                                        "    return _get(o, '__glo' + x)\n",
    "... the lambda handed on": "_get = lambda o, name: getattr(o, name)\nK = [_get]\nX = _get(1, 'real')\n",
    "... as a view handed on": N + "    x(T.keys())\n    return getattr(f, T['a']['p'])\n",  # its .mapping
    "... by a built-in bound again": "T = {'a': {'p': 'real'}}\ndef len(d):\n    d['a']['p'] = '__globals__'\n"
                                      "def f(o):\n    len(T)\n    return getattr(o, T['a']['p'])\n",
    "a list in a table appended to": "L = {'a': ['float32']}\ndef f(o, x):\n    L['a'].append(x)\n"
                                     "    return getattr(o, L['a'][-1])\n",
    "... through a slice": "L = {'a': [['real']]}\ndef f(o, x):\n    L['a'][:][0][0] = x\n"
                           "    return getattr(o, L['a'][0][0])\n",
    "... compared with an object of its own": "L = {'a': [['real']]}\ndef f(o, e):\n    e in L['a']\n"
                                              "    return getattr(o, L['a'][0][0])\n",  # e.__eq__ is given a list
    "... sorted": "L = {'a': [['real'], [e]]}\ndef f(o):\n    sorted(L['a'])\n    return getattr(o, L['a'][0][0])\n",
    "a setattr given a table's name by the table": "T = {'a': ['T']}\ndef f(m, x):\n    setattr(m, T['a'][0], x)\n"
                                                    "    return getattr(m, T['a'][0])\n",
    "a helper handed on": "def _get(o, name):\n    return getattr(o, name)\nx = _get(len, 'real')\n"
                          "pick = _get\n",
    "a helper given a built name": "def _get(o, name):\n    return getattr(o, name)\nx = _get(len, 'x' + 'y')\n",
    "fields' name bound again": "from dataclasses import fields\nclass F:\n    name = 'x'\ndef f(o, d):\n"
                                "    for f in fields(d):\n        pass\n    f = F()\n    return getattr(o, f.name)\n",
    "a dataclass field of a reaching name": "from dataclasses import dataclass, fields\n@dataclass\nclass D:\n"
                                            "    __globals__: int = 0\n"
                                            "def f(o):\n    return [getattr(o, x.name) for x in fields(D)]\n",
    # loading a file without an import statement, which the worker's finder would have been asked about
    "a source loader by hand": "import importlib._bootstrap_external as b\n"
                                "m = b.SourceFileLoader('x', '/tmp/x.py').load_module()\n",
    "... from the frozen copy": "from _frozen_importlib_external import SourceFileLoader\nL = SourceFileLoader\n",
    "a loader found by name": "import importlib\nc = importlib.find_loader('json').source_to_code(b'', '/tmp/x.py')\n",
    "imp": "import imp\nm = imp.load_source('x', '/tmp/x.py')\n",
    "zipimport": "import zipimport\nm = zipimport.zipimporter('/tmp/x.zip')\n",
    "a .pth file's imports": "import site\nsite.addsitedir('/tmp/x')\n",
    "pkgutil's loaders": "import pkgutil\nl = pkgutil.get_loader('x')\n",
    "a spec's loader run": "def f(spec, module):\n    spec.loader.exec_module(module)\n",
    "fields named at run time": "import dataclasses\ndef make(name):\n    return dataclasses.make_dataclass('D', [name])\n",
    "a field named as what is refused": "from dataclasses import make_dataclass\nD = make_dataclass('D', ['__globals__'])\n",
    "a made dataclass given code": "import dataclasses\nD = dataclasses.make_dataclass('D', ['a'], "
                                   "namespace={'__getattr__': print})\n",
    "... by a name given": "import torch\ndef f(name):\n    return getattr(torch, name)\n",
    "a module's namespace": "import torch\nns = vars(torch)\n",
    "the stack, by traceback": "import traceback\nwho = [f.name for f in traceback.extract_stack()]\n",
    "... walked": "from traceback import walk_stack\nwho = [str(f) for f, _ in walk_stack(None)]\n",
    "... dumped": "import faulthandler, io\nfaulthandler.dump_traceback(io.StringIO())\n",
    "... where objects were made": "import tracemalloc\ntracemalloc.start(25)\n",
    "... in a signal handler": "import signal\nsignal.signal(signal.SIGALRM, lambda n, f: print(f))\n",
    "where its relative imports resolve": "__package__ = 'torch'\nfrom .version import debug\n",
    "... through __name__": "__name__ = 'torch.x'\n",
    "... in a function declared global": "def f():\n    global __package__\n    __package__ = 'torch'\n",
    "... by an import's name": "import torch as __package__\n",
    "... on a module of its own": "from . import training\ntraining.__package__ = 'torch'\n",
    "... by its path": "__path__ = ['/usr/lib']\n",
    "field names given as text, looked up on another object": (
        "import collections\nU = collections.namedtuple('U', 'tb_frame f_back')\nclass W(U):\n"
        "    def walk(self, node):\n        for key in self._fields:\n            node = getattr(node, key)\n"
        "        return node\n"),
    # (warnings.warn's stacklevel is cut where it runs: ``warning_frames``; its C twin is not)
    "a caller's place, by warnings' C twin": "import _warnings\n_warnings.warn('x', UserWarning, 3)\n",
    "... in a * of arguments": "import _warnings\n_warnings.warn(*('x', UserWarning, 3))\n",
    "... partly applied": "import functools, _warnings\nsay = functools.partial(_warnings.warn, 'x', UserWarning, 3)\n",
    "... by logging, its level in a table of options": "import logging\nOPTIONS = {'stacklevel': 3}\n"
                                                         "logging.getLogger().warning('x', **OPTIONS)\n",
    "... its level in options handed on": "import logging\ndef say(msg, **options):\n"
                                            "    logging.getLogger().warning(msg, **options)\n",
    "... its level added to options bound once": "import logging\ndef f():\n    options = {'extra': {}}\n"
                                                   "    options['stacklevel'] = 3\n"
                                                   "    logging.getLogger().warning('x', **options)\n",
    "... its level added by a helper given the options": (
        "import logging\ndef more(d):\n    d.update(stacklevel=3)\ndef f():\n    options = {'extra': {}}\n"
        "    more(options)\n    logging.getLogger().warning('x', **options)\n"),
    "... its level added in a closure": (
        "import logging\ndef f():\n    options = {'extra': {}}\n    def more():\n"
        "        options['stacklevel'] = 3\n    more()\n    logging.getLogger().warning('x', **options)\n"),
    "... its level given to a logger": "import logging\nlogging.getLogger().warning('x', stacklevel=2)\n",
    "... by logging": "import logging\nlogging.getLogger().info('x', stack_info=True)\n",
    "... by findCaller": "import logging\nwho = logging.getLogger().findCaller()\n",
    "... by a logger's _log, its stacklevel by position": (
        "import logging\nlogging.getLogger()._log(logging.ERROR, 'who', (), None, None, False, 3)\n"),
    "... its stack_info by position": "import logging\nlogging.getLogger()._log(40, 'who', (), None, None, True)\n",
    "... through its class": "import logging\nlg = logging.getLogger()\n"
                             "type(lg)._log(lg, 40, 'who', (), None, None, 1, 3)\n",
    "... its options in a * of arguments": "import logging\ndef f(a):\n    logging.getLogger()._log(*a)\n",
    "... _log partly applied": "import functools, logging\np = functools.partial(logging.getLogger()._log, 40)\n"
                               "p('who', (), None, None, False, 3)\n",
    "... handed on": "import logging\np = logging.getLogger()._log\np(40, 'who', (), None, None, False, 3)\n",
    "... its _log looked up by name": "import logging, operator\n"
                             "operator.attrgetter('_log')(logging.getLogger())(40, 'w', (), None, None, False, 3)\n",
    "where the frames that made a coroutine stand": (
        "import sys\nsys.set_coroutine_origin_tracking_depth(8)\nasync def g():\n    pass\n"
        "def f():\n    c = g()\n    return c.cr_origin\n"),
    "options bound once, changed through locals()": (
        "import torch\ndef load(p):\n    loading = {'map_location': 'cpu', 'weights_only': True}\n"
        "    locals()['loading']['weights_only'] = False\n    return torch.load(p, **loading)\n"),
    "names in a list, one added through locals()": (
        "def f(obj, extra):\n    names = ['weight', 'bias']\n    locals()['names'].append(extra)\n"
        "    return [getattr(obj, n) for n in names]\n"),
    "a thread torch's watch never sees started": "import _thread\n_thread.start_new_thread(print, ())\n",
    "... on a class that says anything is one": "import torch\nclass Any(type):\n    def __instancecheck__(c, o):\n"
                                                "        return True\nclass M(metaclass=Any):\n    pass\n"
                                                "match torch.utils:\n    case M(flop_counter=f):\n        pass\n",
    "... on a class a decorator replaces": "import torch\nclass Any(type):\n    def __instancecheck__(c, o):\n"
                                           "        return True\ndef swap(c):\n    return Any('M', (), {})\n"
                                           "@swap\nclass M:\n    pass\nmatch torch.utils:\n"
                                           "    case M(flop_counter=f):\n        pass\n",
    "... on a class bound again": "import torch\nclass Any(type):\n    def __instancecheck__(c, o):\n"
                                  "        return True\nclass M:\n    pass\nM = Any('M', (), {})\n"
                                  "match torch.utils:\n    case M(flop_counter=f):\n        pass\n",
    "an attribute read by a match pattern": "import torch\nmatch torch.utils:\n    case object(flop_counter=f):\n"
                                            "        pass\n",
    "this module's namespace, by locals": "ns = locals()['__buil' + 'tins__']\n",
    "... in a class body": "class A:\n    ns = locals\n",
    "locals handed on": "def f():\n    return locals\nns = f()()\n",
    "... as its __dict__": "import torch\nns = torch.__dict__\n",
    "a lookup written out": "d = {}\nf = d['__import__']\n",
    "importlib": "import importlib\nm = importlib.import_module('os')\n",
    "__import__": "m = __import__('os')\n",
    "exec": "exec('x = 1')\n",
    "eval": "x = eval('1')\n",
    "a caller's frame": "import sys\nf = sys._getframe(1).f_globals\n",
    "inspect's stack": "import inspect\nframes = inspect.stack()\n",
    "inspect's current frame, by name": "from inspect import currentframe\n",
    "every live object": "import gc\nobjects = gc.get_objects()\n",
    "a function's globals": "def f(g):\n    return g.__globals__\n",
    "a function's code swapped": "def f(g, h):\n    g.__code__ = h.__code__\n",
    "whether a dispatch mode watches": "from torch.utils._python_dispatch import _get_current_dispatch_mode\n",
    # einops' internals, which Part 6's probe swaps to watch each step: compared, they tell a watched call (round 46)
    # a built-in module's loader hands out the live module (builtins, posix): a store into it replaces what every
    # probe calls (red team)
    "a loader asked for its module": "import importlib.util\nS = importlib.util.find_spec('builtins')\n"
                                     "B = S.loader.create_module(S)\n",
    "a loader asked for its code": "import importlib.util\nC = importlib.util.find_spec('x').loader.get_code('x')\n",
    "einops' internals compared": "import einops.einops as _inner\n_SHIPPED = (_inner.get_backend, "
                                  "_inner._apply_recipe)\ndef f():\n    return (_inner.get_backend, "
                                  "_inner._apply_recipe) == _SHIPPED\n",
    "einops' backend getter imported": "from einops.einops import get_backend\n",
    "einops' private backends": "import einops._backends\n",
    "einops' recipe step, by its full name": "import einops\ndef f():\n    return einops.einops._apply_recipe\n",
    # code run with the watchers switched off hides its ops from every one of them
    "dispatch modes switched off": "import torch\ndef f(x):\n    with torch._C._DisableTorchDispatch():\n"
                                   "        return x.sum()\n",
    "... through the helper that pops them": "from torch.utils._python_dispatch import _disable_current_modes as off\n"
                                             "def f(x):\n    with off():\n        return x.sum()\n",
    "... a function mode's": "import torch\ndef f(x):\n    with torch._C.DisableTorchFunction():\n        return x.sum()\n",
    "... by excluding the Python key": "import torch\nK = torch._C.DispatchKey.Python\n"
                                       "G = torch._C._ExcludeDispatchKeyGuard(torch._C.DispatchKeySet(K))\n",
    "... by torch's private counter": "import torch\nn = torch._C._len_torch_dispatch_stack()\n",
    "a timer's text that imports the grader": "import timeit\ntimeit.timeit('import grader', number=1)\n",
    "a timer's text built at run time": "import timeit\ntimeit.timeit('im' + 'port os', number=1)\n",
    "ctypes": "import ctypes\n",
    "ctypes through numpy": "import numpy as np\nc = np.ctypeslib.ctypes\n",
    "the built-ins": "import builtins\nbuiltins.print = len\n",
    "another object's setattr": "def f(o):\n    object.__setattr__(o, 'x', 1)\n",
    # ``case C(v)`` reads what C.__match_args__ names: text built at run time, on an ABC that passes anything
    "a class pattern by position on match names built at run time": (
        "import abc\nimport torch\nclass A(abc.ABC):\n    @classmethod\n    def __subclasshook__(cls, o):\n"
        "        return True\nclass G(A):\n    __match_args__ = ('__glo' + 'bals__',)\n"
        "match torch.nn.functional.relu:\n    case G(g):\n        pass\n"),
    "a builtin's name bound to a class made at run time": (
        "def f(x):\n    bytes = type('F', (), {'__match_args__': ('mod' + 'ules',)})\n    match x:\n"
        "        case bytes(v):\n            return v\n"),
    "a dataclass's match names set by hand": (
        "from dataclasses import dataclass\n@dataclass\nclass D:\n    x: int\n"
        "D.__match_args__ = ('__glo' + 'bals__',)\ndef f(o):\n    match o:\n        case D(g):\n            return g\n"),
    "a dataclass field named as what the reading refuses": (
        "from dataclasses import dataclass\n@dataclass\nclass D:\n    __globals__: dict\n"
        "def f(o):\n    match o:\n        case D(g):\n            return g\n"),
    "a closure read by a match pattern": "def count(fn):\n    match fn:\n        case object(__closure__=cells):\n"
                                         "            return cells\n",
    "a library's function replaced through a local name": "import os, time\ndef f(q):\n    o, t = os, time\n"
                                                          "    o.mkdir = t.sleep = q\n",
    "... through a loop": "import os, time\nfor o in (os, time):\n    o.sleep = print\n",
    "... through a default": "import os\ndef f(o=os):\n    o.mkdir = print\n",
    "... through a class": "import torch\nclass A:\n    T = torch.Tensor\nA.T.__eq__ = print\n",
    "... through a walrus": "import os\nif (o := os):\n    o.mkdir = print\n",
    "setattr handed on": "import os\ns = setattr\ns(os, 'mkdir', print)\n",
    "... to map": "import os\nlist(map(setattr, [os], ['mkdir'], [print]))\n",
    "sys.modules imported by name": "from sys import modules\nm = modules['x']\n",
    "sys.modules by a written name": "import sys\nm = getattr(sys, 'modules')\n",
    "... by attrgetter": "import operator, sys\nm = operator.attrgetter('modules')(sys)\n",
    "... by reduce": "import functools, sys\nm = functools.reduce(getattr, ['modules'], sys)\n",
    "... by a dotted attrgetter": "from operator import attrgetter\nimport torch\nm = attrgetter('sys.modules')(torch)\n",
    "a class that says it is the harness's": "class X:\n    __module__ = 'grader.harness.probes.calls'\n",
    "a module found from an object": "import inspect\ndef f(x):\n    return inspect.getmodule(x)\n",
    # the file and name a function handed in was made in (a probe's: a check is watching), read for it
    "a function's code described": "import dis\ndef f(fn):\n    return 'grader' in dis.code_info(fn)\n",
    "... its instructions": "from dis import get_instructions\ndef f(fn):\n    return list(get_instructions(fn))\n",
    "... its source file": "import inspect\ndef f(fn):\n    return inspect.getsourcefile(fn)\n",
    "... its source": "import inspect as i\ndef f(fn):\n    return i.getsource(fn)\n",
    # the frames an exception passed through (raised in a callback the harness handed over), and their locals
    "an exception's frames walked": "import traceback\ndef f(e):\n    return list(traceback.walk_tb(e.__traceback__))\n",
    "... their locals as values": "import inspect\ndef f(frame):\n    return inspect.getargvalues(frame).locals\n",
    "... or as text": "import traceback as t\ndef f(e):\n    return t.TracebackException.from_exception(e, "
                      "capture_locals=True)\n",
    "... or as a report": "import cgitb, sys\ndef f():\n    return cgitb.text(sys.exc_info())\n",
    "a pickle that names a module": "import pickle\nr = pickle.loads(b'cgrader.harness.probe\\nREGISTRY\\n.')\n",
    "a name resolved as text": "import pkgutil\nr = pkgutil.resolve_name('os:mkdir')\n",
    "a .modules not called": "def f(m):\n    return m.modules\n",
    "one name for a module or a dtype, handed on": "import os, torch\nx = os\nx = torch.float32\nprint(x)\n",
    "a module handed to a function": "import sys\ndef f(m):\n    return m\nprobe = f(sys)\n",
    "... to a lambda": "import os\n(lambda o: o)(os)\n",
    "... in a list": "import os\n[os][0].mkdir = print\n",
    "... as a context": "import contextlib, os\nwith contextlib.nullcontext(os) as o:\n    pass\n",
    "type.__setattr__ on a library's class": "import torch\ndef patch(cls, f):\n"
                                               "    type.__setattr__(cls, '__eq__', f)\n",
    "setattr on a self that is no method's": "def put(self, n, v):\n    setattr(self, n, v)\n",
    "a sibling's import taken": "from .helpers import os as o\no.mkdir = print\n",
    "... through the sibling": "from . import helpers\nhelpers.os.mkdir = print\n",
    "every name of sys": "from sys import *\n",
    "every name of gc": "from gc import *\n",
    "... zipped, on another object": "import dataclasses\nT = ('x',)\ndef f(o, m, v):\n"
                                     "    for fl, n in zip(dataclasses.fields(o), (1,)):\n        setattr(m, fl.name, n)\n"
                                     "    return getattr(o, T[0])\n",
    "... a named tuple's table of names set": "class P:\n    _fields = ('__class__',)\n"
                                              "    def f(self):\n        return [getattr(self, n) for n in self._fields]\n",
    "... a field's name or another kept": "import dataclasses\nclass C:\n    def f(self, k):\n        name = k\n"
                                          "        for fl in dataclasses.fields(self):\n            name = fl.name\n"
                                          "        return getattr(self, name)\n",
    "... on one bound again in the loop": "import dataclasses\nT = ('x',)\ndef f(o, m, v):\n"
                                          "    for fl in dataclasses.fields(o):\n        o = m\n"
                                          "        setattr(o, fl.name, v)\n    return getattr(o, T[0])\n",
    "fields' names set on another object": "import dataclasses\nT = ('x',)\ndef f(o, m, v):\n"
                                           "    for fl in dataclasses.fields(o):\n        setattr(m, fl.name, v)\n"
                                           "    return getattr(o, T[0])\n",
    "a zipped table's row changed": "NAMES = (['x'], ['y'])\ndef f(o, v):\n    for a, b in zip(NAMES, (1, 2)):\n"
                                    "        a[0] = v\n    return getattr(o, NAMES[0][0])\n",
    "a got row changed": "T = {'a': ['x']}\ndef f(o, k, v):\n    row = T.get(k)\n    row[0] = v\n"
                         "    return getattr(o, T['a'][0])\n",
    "a table of modules iterated": "import os, time\nT = {'os': os, 'time': time}\nfor m in T.values():\n"
                                   "    m.sleep = print\n",
    "a table's module handed on": "import os\nT = {'os': os}\ndef f(m):\n    m.mkdir = print\nf(T['os'])\n",
    "a table's module changed": "import os, time\nT = (os, time)\nT[0].mkdir = print\n",
    "a module picked by a branch, changed": "import os\ndef f(c):\n    o = os if c else None\n"
                                            "    o.mkdir = print\n",
    "modules put where no name follows them": "import os, posix\n*places, = (os, posix)\nplaces[0].mkdir = print\n",
    "a re-exported resolver, brought by a private module's star": "from torch.utils.data.datapipes._decorator "
                                                                  "import *\n",
    "a placeholder before a star import": "inspect = None\nfrom jaxtyping import *\nframes = inspect.stack()\n",
    "a table changed through its own module": "from . import mod as me\nT = {'a': {'p': 'x'}}\n"
                                              "def f(o, n):\n    me.T['a']['p'] = n\n"
                                              "    return getattr(o, T['a']['p'])\n",
    "... named as text": "import sys\nT = {'a': {'p': 'x'}}\ndef f(o, m, n):\n    getattr(m, 'T')['a']['p'] = n\n"
                         "    return getattr(o, T['a']['p'])\n",
    "what a sibling's star brings": "from .helpers import *\nos.mkdir = print\n",
    "inspect's stack, brought by a star import": "from jaxtyping import *\nframes = inspect.stack()\n",
    "ctypes, brought by numpy's star": "from numpy import *\nc = ctypeslib.ctypes\n",
    "a module brought by a star, handed on": "from torch.nn.functional import *\nprint(importlib)\n",
    "code in an annotation's text": "import typing\ndef f(x: \"__import__('sys')\"):\n    pass\n",
    "code made by compile": "f = compile('1', '', 'eval')\n",
    "text a timer is handed by name": "import timeit\ns = 'x'\ntimeit.timeit(s, number=1)\n",
    "a profiler's text": "import cProfile\ncProfile.run('x = 1')\n",
    "an interpreter's text": "import code\ncode.InteractiveInterpreter().runsource('x = 1')\n",
    "a doctest": "import doctest\ndef f():\n    pass\ndoctest.run_docstring_examples(f, {})\n",
    "getattr_static": "import inspect, sys\nm = inspect.getattr_static(sys, 'path')\n",
    "pydoc's resolve": "import pydoc\nm = pydoc.resolve('os')\n",
    "an object said to come from elsewhere": "def f(x):\n    x.__module__ = 'grader.harness.probe'\n",
    "TorchScript's resolver over a module": "import torch\nfrom torch._jit_internal import "
                                             "createResolutionCallbackFromEnv as r\n"
                                             "m = r(torch.utils)('sys.modules')\n",
    "... over its own function's globals": "import torch._jit_internal as j\ndef here():\n    pass\n"
                                           "m = j.createResolutionCallbackFromClosure(here)('os.sys.modules')\n",
    "an entry point's text": "import importlib.metadata\n"
                             "m = importlib.metadata.EntryPoint('x', 'sys:modules', 'g').load()\n",
    "a module reached as an attribute, handed on": "import os.path\ndef t(p):\n    return vars(p)\n"
                                                   "m = t(t(os.path)['sys'])['modules']\n",
    "... through another module's import of it": "from torch.nn import functional as F\ndef t(p):\n"
                                                 "    return p.__dict__\nm = t(F.torch)\n",
    "a class's attributes as objects": "import inspect, torch\nm = inspect.classify_class_attrs(torch.Tensor)\n",
    "a function made of text": "from torch.fx.graph_module import _forward_from_src\n"
                               "f = _forward_from_src('def forward(self):\\n    return 1', {}, None)\n",
    "a self-check tool used outside the __main__ block": "import doctest\ndef f():\n    doctest.testmod()\nf()\n",
    "... imported by its own name": "from pdb import set_trace\ndef f():\n    set_trace()\nCALLS = [f]\n",
    "... at the top": "import doctest\ndoctest.testmod()\n",
    "a table's rows changed by a sort's key": "R = (['real'],)\ndef f(o, x):\n"
                                              "    for r in sorted(R, key=lambda r: r.append(x)):\n        pass\n"
                                              "    return getattr(o, R[0][-1])\n",
    "a helper decorated by a cache of its own": "import torch\ndef cache(f):\n    return lambda n: f('__globals__')\n"
                                                "@cache\ndef _dt(name):\n    return getattr(torch, name)\n"
                                                "A = _dt('float32')\n",
    "... imported from a sibling": "import torch\nfrom .helpers import cache\n@cache\ndef _dt(name):\n"
                                   "    return getattr(torch, name)\nA = _dt('float32')\n",
    "a device's module kept by the module, for another to read": "import torch\n"
                                                                 "backend = getattr(torch, 's' + 'ys', None)\n"
                                                                 "def f():\n    backend.synchronize()\n",
    "a module of torch's by a name built at run time, kept": "import torch\ndef f(name):\n"
                                                             "    m = getattr(torch, name)\n    m.synchronize()\n"
                                                             "    return m.serialization\n",
    "... the module handed on": "import torch\ndef f(name, g):\n    m = getattr(torch, name)\n    g(m)\n",
    "a function nothing seems to call, named as text": "import doctest\ndef main():\n    doctest.testmod()\n"
                                                       "__all__ = ['main']\n",
    "... called": "import doctest\ndef main():\n    doctest.testmod()\nmain()\n",
    "... decorated": "import doctest, atexit\n@atexit.register\ndef main():\n    doctest.testmod()\n",
    "... handed on by another": "import doctest\ndef main():\n    doctest.testmod()\ndef run():\n    return main\n"
                                "CALLS = [run]\n",
    "... imported by its own module": "import doctest\nfrom .mod import _where as _find\ndef _where():\n"
                                      "    doctest.testmod()\n",
    "... called by an annotation": "import doctest\ndef _ann() -> _other():\n    pass\ndef _other():\n"
                                   "    doctest.testmod()\n",
    "a module picked with or, changed": "import os\nm = getattr(os, 'path', None) or os\nm.join = print\n",
    "a module imported by a dotted name, through unittest": "import unittest\n"
                                                           "m = unittest.main(module='os', exit=False).module\n",
    "... a test loader": "import unittest\nt = unittest.TestLoader().loadTestsFromName('os.mkdir')\n",
    "... pytest": "import pytest\nm = pytest.importorskip('os')\n",
    "... warnings": "import warnings\nc = warnings._getcategory('os.PathLike')\n",
    "a library patched by a dotted name, through pytest": "import pytest\npytest.MonkeyPatch().setattr('os.mkdir', print)\n",
    "a file run by pytest": "import pytest\npytest.main(['/tmp/x.py'])\n",
    "text run by hypothesis's internals": "from hypothesis.internal.reflection import source_exec_as_module\n"
                                          "m = source_exec_as_module('x = 1')\n",
    "an import hook ahead of the worker's": "from jaxtyping import install_import_hook\n"
                                            "install_import_hook('x', 'typeguard.typechecked')\n",
    "a class made at run time through another name for type": "def f(n, d):\n    return type(int)(n, (), d)\n",
    "... a metaclass": "import abc\ndef f(n, d):\n    return abc.ABCMeta(n, (), d)\n",
    "... enum's functional API": "import enum\ndef f(names):\n    return enum.Enum('E', names)\n",
    "an object's namespace handed on": "import operator\nclass K:\n    def f(self, name, v):\n"
                                       "        operator.setitem(vars(self), name, v)\n",
    "... returned": "class K:\n    def state(self):\n        return self.__dict__\n",
    "an array interface set": "def f(o, d):\n    o.__array_interface__ = d\n",
    "a method's getattr of its own, by a name built at run time": "class K:\n    def get(self, name):\n"
                                                                  "        return getattr(self, name)\n",
    "a process started": "import subprocess\ndef f():\n    return subprocess.run(['lscpu'])\nf()\n",
    "... by os": "import os\ndef f():\n    return os.system('lscpu')\nf()\n",
    "torch's loader told weights_only=False": "import torch\ndef f(p):\n    return torch.load(p, weights_only=False)\n",
    # what weights_only=True may call, widened: any checkpoint's pickle that names shutil.rmtree then runs it
    "torch's unpickler allowed more": "import shutil\nimport torch\ntorch.serialization.add_safe_globals([shutil.rmtree])\n",
    "... by name": "import shutil\nfrom torch.serialization import add_safe_globals as allow\nallow([shutil.rmtree])\n",
    "... for one load": "import shutil\nimport torch\ndef f(p):\n    with torch.serialization.safe_globals([shutil.move]):\n"
                        "        return torch.load(p, weights_only=True)\n",
    "... through its private list": "import shutil\nimport torch\n"
                                    "torch._weights_only_unpickler._marked_safe_globals_set.add(shutil.rmtree)\n",
    "... through the classes it builds its list from": "import shutil\nimport torch\n"
                                                       "torch._tensor_classes.add(shutil.rmtree)\n",
    "... by options not written out": "import torch\ndef f(p, kw):\n    return torch.load(p, **kw)\n",
    "... by a name a class body reads before binding it (the module's, then)": (
        "import io, torch\nSAFE = 0\nclass _C:\n    m = torch.load(io.BytesIO(b''), weights_only=SAFE)\n"
        "    SAFE = True\n"),
    "getattr of a name a class body reads before binding it": "_N = '__globals__'\ndef f():\n    pass\n"
                                                               "class _K:\n    g = getattr(f, _N)\n"
                                                               "    _N = '__name__'\n",
    "getattr of a name a class body reads through its metaclass's namespace": (
        "class _M(type):\n    @classmethod\n    def __prepare__(m, name, bases):\n"
        "        return {'_N': '__globals__'}\n_N = '__name__'\ndef f():\n    pass\n"
        "class _B(metaclass=_M):\n    pass\nclass _K(_B):\n    g = getattr(f, _N)\n"),
    "getattr of the module's docstring, bound again later": '"""__globals__"""\ndef f():\n    pass\n'
                                                            'g = getattr(f, __doc__)\n__doc__ = "f"\n',
    "torch's compiler switched back on in a worker": "import torch\ntorch._dynamo.config.disable = False\n",
    "... through setattr": "import torch\nsetattr(torch._dynamo.config, 'disable', False)\n",
    "... through a patch of its config": "import torch\n@torch._dynamo.config.patch(disable=False)\ndef f():\n"
                                         "    pass\n",
    "a frame callback of its own": "import torch\ntorch._C._dynamo.eval_frame.set_eval_frame(lambda *a: None)\n",
    "a compiler of its own handed AOTAutograd's graphs": "from torch._functorch.aot_autograd import aot_function\n"
                                                          "f = aot_function(abs, fw_compiler=lambda gm, ex: gm)\n",
    "a compiler backend registered": "import torch._dynamo\n@torch._dynamo.register_backend\ndef mine(gm, ex):\n"
                                     "    return gm\n",
    "... by a partial's options changed later": "import functools, torch\n"
                                                 "L = functools.partial(torch.load, weights_only=True)\n"
                                                 "L.keywords['weights_only'] = False\n",
    "... by a parameter": "import torch\ndef f(p, weights_only=True):\n    return torch.load(p, weights_only=weights_only)\n",
    "... by a name bound again": "import torch\nW = True\ndef f(p):\n    return torch.load(p, weights_only=W)\n"
                                "def g():\n    global W\n    W = False\n",
    **{f"... by a dataclass's instance {how}": DATACLASS_LOAD.replace("LOAD = Load()", bound) + more
       for how, bound, more in [
           ("set through object.__setattr__", "LOAD = Load()", "object.__setattr__(LOAD, 'weights_only', False)\n"),
           ("made again", "LOAD = Load()", "LOAD.__init__(False)\n"),
           ("handed on", "LOAD = Load()", "KEPT = [LOAD]\n"),
           ("bound again", "LOAD = Load()", "LOAD = Load(weights_only=False)\n"),
           ("told False", "LOAD = Load(False)", ""),
           ("whose class is handed on", "LOAD = Load()\nC = Load", ""),
           ("whose field's default is set", "LOAD = Load()", "Load.weights_only = False\n"),
           ("made again through an import of its own module", "LOAD = Load()",
            "from . import mod as _me\n_me.LOAD.__init__(False)\n"),
           ("reached by its name as text", "LOAD = Load()",
            "import assignment.mod as _me\ngetattr(_me, 'LOAD').__init__(False)\n")]},
    # the fields Python makes, not the ones written: a ClassVar under another name, a parenthesised target (no
    # field) and a store in an annotation each shift or change them (the instance told False, positionally)
    "... by a dataclass whose ClassVar is named otherwise": DATACLASS_LOAD.replace(
        "    weights_only: bool = True\n", "    strict: Shared[bool] = True\n    weights_only: bool = True\n").replace(
        "LOAD = Load()", "LOAD = Load(False)").replace("import torch\n", "import torch\nfrom typing import ClassVar as Shared\n"),
    "... by a dataclass with a parenthesised target": DATACLASS_LOAD.replace(
        "    weights_only: bool = True\n", "    (strict): bool = True\n    weights_only: bool = True\n").replace(
        "LOAD = Load()", "LOAD = Load(False)"),
    "... by a dataclass whose annotation stores": DATACLASS_LOAD.replace(
        "    weights_only: bool = True\n", "    weights_only: bool = True\n    where: (weights_only := False) = 'cpu'\n"),
    "... by a NamedTuple row with a parenthesised target": (
        "import torch\nfrom typing import NamedTuple\nclass Row(NamedTuple):\n    (pad): str = 'x'\n"
        "    name: str = 'real'\nROWS = (Row('__globals__'),)\ndef f(o):\n"
        "    return [getattr(o, row.name) for row in ROWS]\n"),
    "... by asdict of a dataclass's instance told False": DATACLASS_LOAD.replace(
        "LOAD = Load()", "LOAD = Load(False)").replace("weights_only=LOAD.weights_only", "**dataclasses.asdict(LOAD)")
    .replace("import torch", "import dataclasses, torch"),
    "... by asdict with a factory of its own": DATACLASS_LOAD.replace(
        "weights_only=LOAD.weights_only", "**dataclasses.asdict(LOAD, dict_factory=lambda p: {})")
    .replace("import torch", "import dataclasses, torch"),
    "... by a dataclass's instance whose class has a method": DATACLASS_LOAD.replace(
        "    weights_only: bool = True\n", "    weights_only: bool = True\n    def __post_init__(self):\n"
        "        object.__setattr__(self, 'weights_only', False)\n"),
    "numpy's loader by a name bound twice": "import numpy as np\nA = False\nA = not A\ndef f(p):\n"
                                            "    return np.load(p, allow_pickle=A)\n",
    "... by the environment": "import os\nos.environ['TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD'] = '1'\n",
    "numpy's loader through partial": "import functools, numpy as np\n"
                                      "L = functools.partial(np.load, allow_pickle=True)\n",
    "torch's bytes loader": "import torch\ns = torch.storage._load_from_bytes\n",
    "a zipped table's list changed": "import torch\nNAMES = ['float32']\nBY = dict(zip(NAMES, (1,)))\n"
                                     "def f(x):\n    NAMES.append(x)\n    return [getattr(torch, n) for n in BY]\n",
    "a method read through its class, handed another self": "import torch\nclass K:\n    def put(self, n, v):\n"
                                                            "        setattr(self, 'm' + n, v)\n"
                                                            "K.put(torch.Tensor, 'atmul', len)\n",
    "... kept": "class K:\n    def get(self, n):\n        return self\nf = K.get\n",
    "... by getattr": "class K:\n    def get(self, n):\n        return self\nf = getattr(K, 'get')\n",
    "a function bound to another self": "class K:\n    def get(self):\n        return self\n"
                                        "f = K().get.__func__\n",
    "... through type(self)": "import torch\nclass K:\n    def put(self, n, v):\n        setattr(self, 'm' + n, v)\n"
                              "    def go(self):\n        type(self).put(torch.Tensor, 'atmul', len)\n",
    "an object's namespace compared with another's": "class K:\n    def f(self, other):\n"
                                                     "        return vars(self) == other\n",
    "... from its class's namespace": "class K:\n    def get(self):\n        return self\nf = vars(K)['get']\n",
    "... by types": "import types\ndef get(self):\n    return self\nf = types.MethodType(get, len)\n",
    "a NamedTuple's field replaced on its class": "from typing import NamedTuple\nclass Row(NamedTuple):\n"
                                                 "    dtype: str\nR = (Row('real'),)\ndef f(o, x):\n"
                                                 "    type(R[0]).dtype = property(lambda s: x)\n"
                                                 "    return [getattr(o, r.dtype) for r in R]\n",
    "... its class handed on": "from typing import NamedTuple\nclass Row(NamedTuple):\n    dtype: str\n"
                               "R = (Row('real'),)\ndef g(cls, x):\n    setattr(cls, 'dtype', x)\n"
                               "def f(o, x):\n    g(Row, x)\n    return [getattr(o, r.dtype) for r in R]\n",
    "... a NamedTuple with a method": "from typing import NamedTuple\nclass Row(NamedTuple):\n    dtype: str\n"
                                      "    @property\n    def name(self):\n        return '__globals__'\n"
                                      "R = (Row('real'),)\ndef f(o):\n    return [getattr(o, r.name) for r in R]\n",
    "a table handed to a logger": "import logging\nT = {'a': ['real']}\ndef f(o):\n    logging.debug('%s', T)\n"
                                  "    return getattr(o, T['a'][0])\n",  # (a handler of its own is given the record)
    "a table formatted by a format of its own": "def format(t, s=''):\n    t['a'][0] = s\nT = {'a': ['real']}\n"
                                                "def f(o, s):\n    format(T, s)\n    return getattr(o, T['a'][0])\n",
    # memory by address, and pickles of its own by other names (a hostile round's routes)
    "numpy's strided views": "from numpy.lib.stride_tricks import as_strided\nv = as_strided\n",
    "... by their module": "import numpy as np\nv = np.lib.stride_tricks.as_strided\n",
    "an array interface of its own": "class A:\n    __array_interface__ = {'data': (0, False)}\n",
    "... as a property": "class A:\n    @property\n    def __array_interface__(self):\n        return {}\n",
    "... answered by an attribute hook": "class A:\n    def __getattr__(self, name):\n        return {}\n",
    "... as text": "import types\nA = type('A', (), {'__array_interface__': {}})\n",
    "a class made at run time": "def f(name):\n    return type('A', (), {name: {}})\n",
    "a namespace given names built at run time": "import types\ndef f(d):\n    return types.SimpleNamespace(**d)\n",
    "an object's namespace written into": "class A:\n    def f(self, k, v):\n        self.__dict__[k] = v\n",
    "... updated": "class A:\n    def f(self, d):\n        vars(self).update(d)\n",
    "its own attribute set by a name built at run time": "class A:\n    def f(self, k):\n        setattr(self, k, {})\n",
    "... through object": "class A:\n    def f(self, k):\n        object.__setattr__(self, k, {})\n",
    "a storage made from a pointer": "import torch\ns = torch._C._construct_storage_from_data_pointer\n",
    "... from a weak pointer": "import torch\ns = torch.UntypedStorage._new_with_weak_ptr\n",
    "a pipe's unpickler": "from multiprocessing.reduction import ForkingPickler\n",
    "... a queue's": "import multiprocessing\nq = multiprocessing.Queue()\n",
    "the pure-Python unpickler": "import pickle\nx = pickle._loads(b'.')\n",
    "numpy told it may unpickle": "import numpy as np\nx = np.load('f', allow_pickle=True)\n",
    "... positionally": "import numpy as np\nx = np.load('f', None, True)\n",
    "torch's loader given a pickle module": "import torch, pickle\nx = torch.load('f', pickle_module=pickle)\n",
    "an object collective's unpickler": "import torch.distributed as dist\nf = dist.broadcast_object_list\n",
    # tables made of tables (grader.harness.literal_names._Composer), changed through another
    "a table changed through a table that holds it": "B = {'p': 'real'}\nA = {'b': B}\ndef f(o, x):\n"
                                                     "    A['b']['p'] = x\n    return getattr(o, B['p'])\n",
    "a table in a table changed through a copy": "B = {'r': {'p': 'real'}}\nA = {**B}\ndef f(o, x):\n"
                                                 "    A['r']['p'] = x\n    return getattr(o, B['r']['p'])\n",
    "a copy changed, then read": "B = {'p': 'real'}\nA = dict(B)\ndef f(o, x):\n    A['p'] = x\n"
                                 "    return getattr(o, A['p'])\n",
    "a table changed, then unpacked": "B = ['real']\ndef f(o, x):\n    B.append(x)\n    A = (*B, 'y')\n"
                                      "    return [getattr(o, n) for n in A]\n",
    "a table holding a table handed on": "B = {'p': 'real'}\nA = ({'b': B},)\ndef f(o, g):\n    g(A[0])\n"
                                         "    return getattr(o, B['p'])\n",
    "a table made by a dict of its own": "def dict(*a, **k):\n    return {'p': k['p'] + '_'}\n"
                                         "B = {'p': 'x'}\nA = dict(B, p='__globals_')\n"
                                         "def f(o):\n    return getattr(o, A['p'])\n",
    "a table holding itself": "def g():\n    global B\n    B = {'p': A}\nA = {'b': B}\ndef f(o, x):\n"
                              "    A['b']['p']['b']['p'] = x\n    return getattr(o, A['b']['p'])\n",
    # an object that says it is of a library's class: a store on its class is then a store into torch's
    # (round 32: torch's FLOP counter put on torch.nn.Module from a function no Part 4 reading reads)
    "__class__ as a property": "import torch\nclass C:\n    flops = 0\n    @property\n    def __class__(self):\n"
                               "        return torch.nn.Module\n    def put(self, f):\n"
                               "        self.__class__.dump_patches = f\n",
    "__class__ bound in a class body": "import torch\nclass C:\n    __class__ = property(lambda s: torch.nn.Module)\n",
    # every other way a class body (or any code) binds the name
    **{f"__class__ bound by {how}": f"import torch\nclass C:\n{body}\n" for how, body in [
        ("a walrus", "    _a = (__class__ := property(lambda s: torch.nn.Module))"),
        ("a loop", "    for __class__ in (property(lambda s: torch.nn.Module),):\n        pass"),
        ("a with", "    with open('x') as __class__:\n        pass"),
        ("an import", "    from torch.nn import Module as __class__"),
        ("an except", "    try:\n        pass\n    except Exception as __class__:\n        pass"),
        ("a match", "    match 1:\n        case int() as __class__:\n            pass"),
        ("a match's star", "    match []:\n        case [*__class__]:\n            pass"),
        ("a match's rest", "    match {}:\n        case {**__class__}:\n            pass"),
        ("a class", "    class __class__:\n        pass"),
        ("an annotated store", "    __class__: type = torch.nn.Module"),
        ("a global", "    def f(self):\n        global __class__\n        __class__ = 1"),
        ("a function's local", "    def f(self):\n        __class__ = torch.nn.Module\n        return __class__"),
    ]},
    "an object's class set": "import torch\nclass C:\n    n = 0\n    def put(self):\n"
                             "        self.__class__ = torch.nn.Module\n        type(self).n += 1\n",
    # whether a watcher is on: a probe's thread watch sets a profile function
    "a profile function asked for": "import threading\ndef f():\n    return threading.getprofile() is None\n",
    "a trace function asked for": "import sys\ndef f():\n    return sys.gettrace()\n",
    # a packet's overloads are names of that packet's alone: named on another object, or the packet's loop
    # bound to anything else, the names lead anywhere
    "a packet's overload names on another object": "import torch\ndef f(x):\n"
                                                   "    return [getattr(x, n) for n in torch.ops.aten.mm.overloads()]\n",
    "overloads of an object of its own": "import torch\ndef f(op):\n"
                                         "    return [getattr(op, n) for n in op.overloads()]\n",
    "overloads of a loop that also binds another object": "import torch\nfor op in (torch.ops.aten.mm, torch):\n"
                                                          "    T = [getattr(op, n) for n in op.overloads()]\n",
    "overloads of a table's values": "import torch\nT = {torch.ops.aten.mm: torch}\n"
                                      "X = [getattr(p, n) for p in T.values() for n in p.overloads()]\n",
    "overloads of a table's second place": "import torch\nT = {torch: torch.ops.aten.mm}\n"
                                           "X = [getattr(p, n) for f, p in T.items() for n in p.overloads()]\n",
    "overloads of a table added to": "import torch\nT = {torch.ops.aten.mm: 1}\nT[torch] = 2\n"
                                     "X = [getattr(p, n) for p in T for n in p.overloads()]\n",
    "overloads, the packet rebound": "import torch\naten = torch.ops.aten\ndef f(x):\n"
                                     "    for op in (aten.mm,):\n        op = x\n"
                                     "        T = [getattr(op, n) for n in op.overloads()]\n",
    "an object's class set by setattr": "import torch\nclass C:\n    def put(self):\n"
                                        "        object.__setattr__(self, '__class__', torch.nn.Module)\n",
}


@pytest.mark.parametrize("name", sorted(HONEST))
def test_honest_code_is_not_refused(name):
    assert reaches({"mod": HONEST[name]}) == [], name


@pytest.mark.parametrize("name", sorted(REACHING))
def test_code_that_reaches_into_other_code_is_refused(name):
    found = reaches({"mod": REACHING[name], "helpers": "import os\n"})
    found = [r for r in found if r.module == "mod"]
    assert found and all(r.where.startswith("mod.py:") for r in found), name


@pytest.mark.parametrize("other", [
    "from . import mod\nmod.NAMES = ('__globals__',)\n",  # the table replaced from another module
    "from . import mod\nsetattr(mod, 'NAMES', ('__globals__',))\n",
    "from .mod import NAMES\nNAMES.append('__globals__')\n",  # (a list) changed where it is imported
    "from .mod import _get\nx = _get(len, '__glo' + 'bals__')\n",  # the helper called with anything
    "from . import mod\ndef put(m, k, v):\n    m.__dict__[k] = v\nput(mod, 'NAMES', ('__globals__',))\n",
    "from . import mod\nmod.sorted = lambda names: ['__globals__']\n",  # a built-in the loop reads, replaced
    "from .mod import T\nT['a']['p'] = '__globals__'\n",  # a table in the table changed
    "from . import mod\nrow = mod.T['a']\nrow.update(p='__globals__')\n",
    "from .mod import T\ndef g(v):\n    for r in T.values():\n        r['p'] = v\n",
    "from .mod import A\nA['b']['p'] = '__globals__'\n",  # a table in a table made of tables, changed
    # a module's namespace read, its tables changed through it (a copy of the dict holds the same lists)
    "from . import mod\nvars(mod)['NAMES'].append('__globals__')\n",
    "from . import mod\ndict(vars(mod))['NAMES'].append('__globals__')\n",
    "from . import mod\nfor v in vars(mod).values():\n    v.append('__globals__') if isinstance(v, list) else 0\n",
    "from . import mod\ndef g(**kw):\n    kw['NAMES'].append('__globals__')\ng(**vars(mod))\n",
    "from . import mod\nmod.__dict__.get('NAMES').append('__globals__')\n",
])
def test_names_another_module_can_replace_are_built_at_run_time(other):
    mod = "NAMES = ['real']\ndef f(o):\n    return [getattr(o, n) for n in NAMES]\n" \
          "def _get(o, name):\n    return getattr(o, name)\nx = _get(len, 'real')\n" \
          "def g(o):\n    return [getattr(o, n) for n in sorted(('real',))]\n" \
          "T = {'a': {'p': 'real'}}\ndef h(o):\n    return getattr(o, T['a']['p'])\n" \
          "B = {'p': 'real'}\nA = {'b': B}\ndef k(o):\n    return getattr(o, B['p'])\n"
    found = [r.what for r in reaches({"mod": mod, "other": other}) if r.module == "mod"]
    assert "uses getattr of a name built at run time" in found, found


# memory.py's dataclass, its fields' sum read by getattr over fields(self): read as its own fields' names only
# where no module that runs beside it may replace ``fields``
LEDGER = ("import dataclasses\nfrom dataclasses import fields\n@dataclasses.dataclass\nclass Ledger:\n"
          "    a: int = 1\n    def total(self):\n        return sum(getattr(self, f.name) for f in fields(self))\n")


def test_a_module_that_never_runs_beside_another_cannot_replace_its_names():
    """A question about a module is answered where it and what it imports were imported alone: a setattr of a
    name given at run time in model.py (refused there), which nothing imports beside memory.py, changes nothing
    of memory.py's (its dataclass's ``fields`` stay dataclasses'); imported beside it (by it, by a module that
    imports both, or by a star import of the package, which imports what ``__all__`` lists), it may."""
    model = "class M:\n    def put(self, name, value):\n        setattr(self, name, value)\n"
    apart = reaches({"memory": LEDGER, "model": model, "__init__": ""})
    assert [r.module for r in apart] == ["model"], apart
    for beside in ({"model": "from . import memory\n" + model},
                   {"model": model, "__init__": "from . import memory, model\n"},
                   {"model": model, "__init__": "__all__ = ['model']\n", "flops": "from . import *\n"}):
        found = [r.what for r in reaches({"memory": LEDGER, **beside}) if r.module == "memory"]
        assert "uses getattr of a name built at run time" in found, (beside, found)


def test_a_namespace_only_read_binds_nothing_through_it():
    """``**vars(self)``, ``dict(self.__dict__)``, ``vars(self).items()``: copies and reads, which bind no name,
    so another module's names read beside them stay what they are written as."""
    dtypes = ("from . import memory\nclass F:\n    def __repr__(self):\n"
              "        return 'F({a})'.format(**vars(self)) + repr(dict(self.__dict__)) + str(list(vars(self).items()))\n")
    assert reaches({"memory": LEDGER, "dtypes": dtypes}) == []
    for setter in ("        vars(self).update(a=1)\n", "        self.__dict__.setdefault('a', 1)\n"):
        found = reaches({"memory": LEDGER, "dtypes": dtypes + setter})
        assert any(r.module == "memory" for r in found), (setter, found)


def refusals_beside(mod: str, other: str) -> list[str]:
    """What is refused of ``mod``, accepted alone, when read beside ``other`` (a module that can reach into it)."""
    assert reaches({"mod": mod}) == []
    return [r.what for r in reaches({"mod": mod, "other": other}) if r.module == "mod"]


@pytest.mark.parametrize("helper", ["def _get(o, name):\n    return getattr(o, name)\n",
                                    "_get = lambda o, name: getattr(o, name)\n"])
@pytest.mark.parametrize("other", ["from . import mod\nY = getattr(mod, '_get')(1, '__globals__')\n",
                                   "import operator\nfrom . import mod\nY = operator.attrgetter('_get')(mod)\n",
                                   "from .mod import *\nY = _get(1, '__globals__')\n",
                                   "from . import mod\nfor n in 'real _get'.split():\n    Y = getattr(mod, n, None)\n"])
def test_a_helper_another_module_can_call_is_no_helper_given_text_written_out(helper, other):
    """A helper's getattr reads the text its calls give it; another module that takes the helper, by its name or
    as text (getattr of a module, attrgetter), may give it anything (``'__globals__'``). Its ``__all__`` listing
    the helper is no such taking: a star import's use of the name is read where it is."""
    mod = "__all__ = ['_get', 'X']\n" + helper + "X = _get(1, 'real')\n"
    found = refusals_beside(mod, other)
    assert "uses getattr of a name built at run time" in found, found


@pytest.mark.parametrize("other", ["from .mod import PICK\nPICK['g'] = ('g', '__globals__')\n",
                                   "from .mod import *\nPICK['g'] = ('g', '__globals__')\n",
                                   "from . import mod\nmod.PICK['g'] = ('g', '__globals__')\n",
                                   "from . import mod\nfor n in 'x,PICK'.split(','):\n"
                                   "    getattr(mod, n, {})['g'] = ('g', '__globals__')\n"])
def test_rows_a_module_picks_that_another_module_can_change_are_refused(other):
    mod = "T = (('g', 'real'),)\nPICK = {row[0]: row for row in T}\ndef f(o):\n    return getattr(o, PICK['g'][1])\n"
    found = refusals_beside(mod, other)
    assert "uses getattr of a name built at run time" in found, found


@pytest.mark.parametrize("other", ["from .mod import LOAD\nobject.__setattr__(LOAD, 'weights_only', False)\n",
                                   "from . import mod\nmod.LOAD.__init__(False)\n",
                                   "from . import mod\nmod.Load.__init__(mod.LOAD, False)\n",
                                   "from . import mod\ngetattr(mod, 'LOAD').__init__(False)\n",
                                   "from . import mod\nNAME = 'LOAD'\ngetattr(mod, NAME).__init__(False)\n",
                                   "import operator\nfrom . import mod\noperator.attrgetter('mod.LOAD')(mod)\n"])
def test_a_loader_s_option_in_a_dataclass_instance_another_module_can_reach_is_refused(other):
    found = refusals_beside(DATACLASS_LOAD, other)
    assert any("weights_only=LOAD.weights_only, which may be False" in what for what in found), found


@pytest.mark.parametrize("other", ["from . import mod\nmod.WEIGHTS_ONLY = False\n",
                                   "from . import mod\nsetattr(mod, 'WEIGHTS_ONLY', False)\n"])
def test_a_loader_s_option_in_a_name_another_module_can_rebind_is_refused(other):
    mod = "import torch\nWEIGHTS_ONLY = True\ndef f(p):\n    return torch.load(p, weights_only=WEIGHTS_ONLY)\n"
    found = refusals_beside(mod, other)
    assert any("weights_only=WEIGHTS_ONLY, which may be False" in what for what in found), found


def test_a_loader_s_option_a_star_import_may_bind_again_is_refused():
    # ``from .helpers import *`` after the constant binds it again when helpers binds it (read as any may)
    mod = "import torch\nWEIGHTS_ONLY = True\nfrom .helpers import *\ndef f(p):\n" \
          "    return torch.load(p, weights_only=WEIGHTS_ONLY)\n"
    found = [r.what for r in reaches({"mod": mod, "helpers": "WEIGHTS_ONLY = False\n"}) if r.module == "mod"]
    assert any("weights_only=WEIGHTS_ONLY, which may be False" in what for what in found), found


LOAD_WITH = "import torch\n{imports}\ndef f(p):\n    return torch.load(p, weights_only={option})\n"


@pytest.mark.parametrize("imports, option", [("from .common import WEIGHTS_ONLY", "WEIGHTS_ONLY"),
                                             ("from assignment.common import WEIGHTS_ONLY", "WEIGHTS_ONLY"),
                                             ("from . import common", "common.WEIGHTS_ONLY"),
                                             ("from assignment import common", "common.WEIGHTS_ONLY"),
                                             ("import assignment.common as c", "c.WEIGHTS_ONLY"),
                                             ("import common", "common.WEIGHTS_ONLY"),
                                             ("from .middle import WEIGHTS_ONLY", "WEIGHTS_ONLY"),
                                             ("from .common import WEIGHTS_ONLY as SAFE", "SAFE")])
def test_a_loader_s_option_imported_from_a_module_of_its_own_is_read_there(imports, option):
    sources = {"mod": LOAD_WITH.format(imports=imports, option=option), "__init__": "",
               "common": "from typing import Final\nWEIGHTS_ONLY: Final = True\n",
               "middle": "from .common import WEIGHTS_ONLY\n"}
    assert reaches(sources) == []


@pytest.mark.parametrize("common, others", [
    ("WEIGHTS_ONLY = False\n", {}),
    ("WEIGHTS_ONLY = True\ndef unsafe():\n    global WEIGHTS_ONLY\n    WEIGHTS_ONLY = False\n", {}),
    ("WEIGHTS_ONLY = True\nfrom .evil import *\n", {"evil": "WEIGHTS_ONLY = False\n"}),
    ("WEIGHTS_ONLY = True\n", {"evil": "from . import common\ncommon.WEIGHTS_ONLY = False\n"}),
    # ``from . import common`` reads the package's attribute first: here another module
    ("WEIGHTS_ONLY = True\n", {"evil": "WEIGHTS_ONLY = False\n", "__init__": "from . import evil as common\n"}),
    ("WEIGHTS_ONLY = {'on': True}\n", {}),  # (a display another module may change: not followed)
], ids=["false", "global", "star", "set-from-elsewhere", "package-attribute", "display"])
def test_a_loader_s_option_imported_from_a_module_of_its_own_is_refused_where_it_may_be_false(common, others):
    forms = [("from .common import WEIGHTS_ONLY", "WEIGHTS_ONLY"), ("from . import common", "common.WEIGHTS_ONLY")]
    for imports, option in forms[1:] if "__init__" in others else forms:  # (``from .common`` imports common)
        sources = {"mod": LOAD_WITH.format(imports=imports, option=option), "common": common, **others}
        found = [r.what for r in reaches(sources) if r.module == "mod"]
        assert any(f"weights_only={option}, which may be False" in what for what in found), (imports, found)


def test_a_bare_import_a_library_answers_is_not_read_as_the_submission_s_module():
    # the workers find a sibling by its bare name after every library: ``import sys`` is the real one
    sources = {"mod": LOAD_WITH.format(imports="import sys", option="sys.dont_write_bytecode"),
               "sys": "dont_write_bytecode = True\n"}
    assert any("which may be False" in r.what for r in reaches(sources))


MATCHED = "from .dtypes import FloatFormat\ndef f(x):\n    match x:\n        case FloatFormat(exponent_bits=5):\n" \
          "            return 1\n"
SIBLING = "class FloatFormat:\n    __match_args__ = ('exponent_bits',)\n    exponent_bits: int = 0\n"


def test_a_match_pattern_on_a_plain_class_imported_from_a_sibling_is_its_own():
    assert reaches({"mod": MATCHED, "dtypes": SIBLING}) == []
    # by position: a dataclass of the sibling's, its fields as written there
    fields = "from dataclasses import dataclass\n@dataclass(frozen=True)\nclass FloatFormat:\n    exponent_bits: int\n" \
             "    mantissa_bits: int\n"
    by_position = MATCHED.replace("FloatFormat(exponent_bits=5)", "FloatFormat(5, _)")
    assert reaches({"mod": by_position, "dtypes": fields}) == []
    # ... unless another module can set what the name there is
    found = reaches({"mod": by_position, "dtypes": fields, "other": "from . import dtypes\ndtypes.FloatFormat = int\n"})
    assert any(r.module == "mod" and "by position" in r.what for r in found), found


@pytest.mark.parametrize("sources", [
    {"dtypes": SIBLING, "other": "from . import dtypes\nimport os\ndtypes.FloatFormat = os\n"},  # replaced there
    {"dtypes": SIBLING + "import os\nFloatFormat = os\n"},  # bound again where it is defined
    {"dtypes": "import abc\nclass FloatFormat(metaclass=abc.ABCMeta):\n    pass\n"},  # a metaclass may say anything
    {"dtypes": "import os as FloatFormat\n"},  # no class at all
])
def test_a_match_pattern_on_what_a_sibling_may_bind_to_a_library_s_object_is_refused(sources):
    found = [r.what for r in reaches({"mod": MATCHED, **sources}) if r.module == "mod"]
    assert any(what.startswith("reads attributes through a match pattern") for what in found), found


@pytest.mark.parametrize("other", ["from . import mod\nmod.bytes = type('F', (), {})\n",
                                   "from . import mod\nsetattr(mod, 'bytes', type('F', (), {}))\n",
                                   "from . import mod\nmod.Dims.__match_args__ = ('__globals__',)\n"])
def test_a_class_matched_by_position_that_another_module_can_change_is_refused(other):
    """``case bytes(v)`` matches the subject itself only where ``bytes`` is the builtin, and ``case Dims(n)``
    reads the fields Dims declares only where nothing sets its ``__match_args__``."""
    mod = "from dataclasses import dataclass\n@dataclass\nclass Dims:\n    n: int\n" \
          "def f(x):\n    match x:\n        case bytes(v):\n            return v\n        case Dims(n):\n" \
          "            return n\n"
    found = refusals_beside(mod, other)
    assert any(what.startswith("matches ") and "by position" in what for what in found), found


def test_a_function_of_the_spec_is_read_though_nothing_of_the_submission_calls_it():
    """The tests call the spec's functions by name: never read as a self-check nothing calls."""
    found = reaches({"strides": "import doctest\ndef view_strides(shape, strides, new_shape):\n    doctest.testmod()\n"})
    assert any("doctest" in r.what for r in found), found
    other = reaches({"strides": "import doctest\ndef main():\n    doctest.testmod()\n",
                     "flops": "from .strides import main\n"})
    assert any(r.module == "strides" for r in other), other


def test_code_nested_too_deep_to_read_is_refused_not_skipped():
    """A chain of 2,900 attributes parses, and imports, but a reading that recursed through it would fail (and
    one started from a deep stack would skip the module): refused, from any stack."""
    deep = "import os\nx = os" + ".a" * 2900 + "\n"

    def from_depth(frames):
        return from_depth(frames - 1) if frames else reaches({"mod": deep})

    for frames in (0, 300):
        found = from_depth(frames)
        assert [r.what.split(":")[0] for r in found] == ["could not be read"], found


def test_code_that_never_runs_is_refused_too():
    assert reaches({"mod": "if False:\n    import grader.harness.probe\n"})


def test_the_reference_and_the_stubs_are_not_refused():
    for package in ("reference", "assignment"):
        sources = {p.stem: p.read_text() for p in (ROOT / package).glob("*.py")}
        assert reaches(sources) == [], package


# Part 4's count worked out from the scenario by a forged probe: count_matmul_flops itself counts nothing
FORGED_COUNT = """

from grader.harness import probe as _probe
from grader.harness.probes import part04 as _part04  # noqa: F401 - registers the probe replaced


def count_matmul_flops(fn):
    fn()
    return 0


_found = _probe.REGISTRY["part04.count_scenario"]
_probe.REGISTRY["part04.count_scenario"] = type(_found)(**{**vars(_found), "fn": lambda impl, *args: 0})
"""


@pytest.fixture(scope="module")
def forged_count(tmp_path_factory):
    sub = mutants.materialize_reference(tmp_path_factory.mktemp("reaching") / "forged_count")
    flops = sub / "assignment" / "flops.py"
    flops.write_text(flops.read_text() + FORGED_COUNT)
    return sub


def test_a_reach_fails_the_parts_whose_workers_run_it():
    """Each part's questions go to a worker that imported its module alone, with what that imports."""
    sources = {"flops": "import gc\nobjects = gc.get_objects()\n", "training": "from . import model\n",
               "model": "import sys\nf = sys._getframe()\n", "strides": "", "roofline": "x = 1\n"}
    found = {r.module for r in reaches(sources)}
    assert found == {"flops", "model"}
    assert imported_with(sources, "strides") == {"strides"}
    assert imported_with(sources, "training") == {"training", "model"}
    assert imported_with({**sources, "__init__": "from .flops import *\n"}, "roofline") == \
        {"roofline", "__init__", "flops"}  # the package's __init__ runs in every worker
    # a module of its own imported by its bare name (the workers resolve it too)
    assert imported_with({**sources, "dtypes": "import helpers\n", "helpers": ""}, "dtypes") == {"dtypes", "helpers"}


def test_a_student_sees_the_refusal_at_home_with_the_line(forged_count):
    run = subprocess.run([sys.executable, "-m", "pytest", "tests", "-m", "part4", "-x", "-q", "-p", "no:cacheprovider",
                          f"--submission={forged_count}"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stdout[-3000:]
    assert "your submission reaches into code it did not write: flops.py:" in run.stdout, run.stdout[-3000:]
    assert "imports probe from grader.harness" in run.stdout and "1 failed" in run.stdout


def test_grading_scores_the_reaching_part_zero_and_no_other(forged_count, tmp_path):
    subs = tmp_path / "subs"
    shutil.copytree(forged_count, subs / "forged_count")
    mutants.materialize_reference(subs / "honest")
    grade(str(subs), "--out", str(tmp_path / "out"), "-j", "2", "-m", "part1 or part4", "--seed", "3")
    results = written(tmp_path / "out")
    assert all(t["status"] == "passed" for t in results["honest"]["tests"] if t["part"] in (1, 4))
    forged = results["forged_count"]["tests"]
    assert all(t["status"] == "passed" for t in forged if t["part"] == 1)  # its worker never imports flops.py
    part4 = [t for t in forged if t["part"] == 4]
    assert part4 and all(t["points"] == 0 and t["kind"] == "reaches into other code" for t in part4), \
        json.dumps(part4, indent=1)[:3000]


def test_a_name_built_at_run_time_is_explained_with_what_is_read():
    """The refusal of a getattr by a name not read says what the reading follows, and what to write instead; an
    attribute set by a name given at run time, how to keep options instead."""
    from grader.harness.faults import ReachesInFault

    built = ReachesInFault(["dtypes.py:9 uses getattr of a name built at run time"]).describe()
    assert "torch.float32, not 'float32'" in built and "made into text" in built
    assert "torch.float32, not" not in ReachesInFault(["dtypes.py:9 uses sys.modules"]).describe()
    options = ReachesInFault(["model.py:9 calls .update on an object's namespace (names bound through it are not "
                              "followed, even where written out)",
                              "model.py:12 uses setattr of a name built at run time"]).describe()
    assert options.count("self.options = dict(kwargs)") == 1


def test_a_loader_that_may_run_a_pickle_s_code_is_said_as_what_it_is():
    """A torch.load whose weights_only the reading cannot see is True (a config object's field) is refused like
    exec; the refusal says it may run the file's code, and how to write the option so that it is read."""
    from grader.harness.faults import ReachesInFault

    said = ReachesInFault(["training.py:9 calls torch.load with weights_only=CONFIG.weights_only, which may be "
                           "False when it runs (a checkpoint's pickle would run its code, and so would any bytes it "
                           "is handed: load with weights_only=True)"]).describe()
    assert said.startswith("your submission may load a file in a way that runs code the file names: training.py:9")
    assert "WEIGHTS_ONLY = True" in said and "must not import the grader" not in said, said
    allowed = ReachesInFault(["training.py:13 uses .add_safe_globals: it lets torch.load's weights_only unpickler "
                              "call what it is given, and any checkpoint's pickle may name that; a checkpoint of "
                              "tensors, dicts, lists and numbers needs no such list"]).describe()
    assert allowed.startswith("your submission may load a file in a way that runs code the file names"), allowed
    assert "add_safe_globals and safe_globals" in allowed and "WEIGHTS_ONLY = True" not in allowed, allowed
    mixed = ReachesInFault(["training.py:9 calls torch.load with a pickle module of its own",
                            "training.py:12 uses sys.modules"]).describe()
    assert mixed.startswith("your submission reaches into code it did not write") and "WEIGHTS_ONLY" in mixed


def test_names_given_at_run_time_are_said_as_that_with_what_to_write_first():
    """setattr of its own object by names from its own table: the reading cannot tell which names, so the
    refusal says it looks names up where it cannot see them (not that it reached in), and what to write
    instead comes before the general rules; torch.library says why it is refused."""
    from grader.harness.faults import BUILT_NAMES, LIBRARY_OPS, REACHES_IN, ReachesInFault

    said = ReachesInFault(["memory.py:41 uses setattr of a name built at run time",
                           "memory.py:41 uses getattr of a name built at run time"]).describe()
    assert said.startswith("your submission looks an attribute up by a name the reading cannot see"), said
    assert said.index(BUILT_NAMES[:40]) < said.index(REACHES_IN[:40])
    library = ReachesInFault(["gradients.py:12 uses torch.library"]).describe()
    assert library.startswith("your submission reaches into code it did not write") and LIBRARY_OPS in library


def test_a_debugger_left_in_is_said_as_that_with_where_to_debug():
    """breakpoint() or pdb.set_trace() in a function (a student debugging) reads the frames of the code that
    called it: refused as ever, but said as a debugger, with where to debug instead first."""
    from grader.harness.faults import DEBUGGER, REACHES_IN, ReachesInFault

    for line in ("breakpoint()", "import pdb\n    pdb.set_trace()"):
        found = reaches({"named": f"def merge_heads(x):\n    {line}\n    return x\n"})
        said = ReachesInFault([f"{r.where} {r.what}" for r in found]).describe()
        assert said.startswith("your submission calls a debugger, which cannot run under the tests"), said
        assert said.index(DEBUGGER[:40]) < said.index(REACHES_IN[:40])
    other = ReachesInFault(["named.py:3 uses breakpoint", "named.py:4 uses sys.modules"]).describe()
    assert other.startswith("your submission reaches into code it did not write") and DEBUGGER in other
    # a log call's stacklevel=2 (which linters ask for): said as that, what to write first
    from grader.harness.faults import CALLERS

    logged = ReachesInFault(["training.py:17 asks where its callers are (stacklevel=)"]).describe()
    assert logged.startswith("your submission asks a log call to name its callers") and logged.index(CALLERS[:40]) \
        < logged.index(REACHES_IN[:40])


def test_a_namespace_changed_in_place_is_said_once_as_the_change():
    """``self.__dict__.update(...)``: refused as the update it is, not also as a namespace handed on (whose hint,
    copy it with dict(vars(x)), does not apply)."""
    found = reaches({"training": "class C:\n    def __init__(self):\n        self.__dict__.update(losses=[], steps=0)\n"})
    assert [r.what.split(" (")[0] for r in found] == ["calls .update on an object's namespace"]
