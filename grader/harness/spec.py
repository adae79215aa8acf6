"""The spec's functions, read from the stubs themselves: names, parameters, return types.

A test names what it calls with a handle:

    view_strides = spec.function("strides.view_strides")
    ask(impl, oracle, view_strides, shape, strides, new_shape).same()

The handle's parameter names (to show a failing call's inputs) and its return
schema (``Strides | None`` -> ``Optional(TupleOf(INT))``) come from the stub's
signature in ``assignment/``, parsed, never imported: the stubs are the
contract, and nothing restates them by hand. Where a test needs more than the
annotation says (a tensor's exact shape), it passes ``returns=`` itself.

The stubs are read from the staff repository's ``assignment/``; the handout,
whose ``assignment/`` is the student's work in progress, reads the pristine
copies recorded when it was built (``tests/recorded/stubs.json.gz``).
"""

from __future__ import annotations

import ast
import gzip
import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from grader.harness import schema as S
from grader.harness.digest import Secret

ROOT = Path(__file__).resolve().parent.parent.parent
RECORDED_STUBS = ROOT / "tests" / "recorded" / "stubs.json.gz"


# --------------------------------------------------------------------------- where the stubs are
def stub_sources(root: Path = ROOT) -> dict[str, str]:
    """module -> source of its pristine stub."""
    return _stub_sources(Path(root).resolve())


@cache
def _stub_sources(root: Path) -> dict[str, str]:
    from grader.harness.impl import MODULES

    recorded = root / "tests" / "recorded" / "stubs.json.gz"
    if not (root / "reference").is_dir() and recorded.exists():  # the handout
        return json.loads(gzip.decompress(recorded.read_bytes()))
    return {m: (root / "assignment" / f"{m}.py").read_text() for m in MODULES
            if (root / "assignment" / f"{m}.py").exists()}


# --------------------------------------------------------------------------- handles
@dataclass(frozen=True)
class Function:
    """A function of the spec, as a test names it. Resolved from the stub on first use."""

    name: str  # "strides.view_strides"
    secret: Secret | None = None  # fixed inputs: the handout keeps only a digest of each answer
    timeout: float | None = None  # seconds one call may take (default: the door's)

    @property
    def params(self) -> tuple[str, ...]:
        return _signature(self.name)[0]

    @property
    def returns(self) -> S.Schema:
        return _signature(self.name)[1]

    def __repr__(self) -> str:
        return f"<spec {self.name}>"


@dataclass(frozen=True)
class Constant:
    """A module-level constant of the spec (``roofline.PEAK_FLOPS_PER_SEC``)."""

    name: str
    secret: Secret | None = None

    @property
    def params(self) -> tuple[str, ...]:
        return ()

    @property
    def returns(self) -> S.Schema:
        return _signature(self.name)[1]

    def __repr__(self) -> str:
        return f"<spec {self.name}>"


def function(name: str, *, secret: Secret | None = None, timeout: float | None = None) -> Function:
    return Function(name, secret, timeout)


def constant(name: str, *, secret: Secret | None = None) -> Constant:
    return Constant(name, secret)


def parameter_names(name: str) -> tuple[str, ...]:
    """The stub's parameter names of ``module.function`` (``()`` if there is no such stub)."""
    try:
        return _signature(name)[0]
    except KeyError:
        return ()


def record_schema(module: str, cls: str) -> S.Schema:
    """The schema of a dataclass or named tuple the stub defines (``dtypes.FloatFormat``)."""
    return _Stub.of(module).record(cls)


@cache
def _signature(name: str) -> tuple[tuple[str, ...], S.Schema]:
    module, _, rest = name.partition(".")
    stub = _Stub.of(module)
    node = stub.defs.get(rest)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        args = node.args
        params = tuple(a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs] if a.arg != "self")
        return params, stub.schema(node.returns) if node.returns is not None else S.Anything()
    if isinstance(node, ast.AnnAssign):
        return (), stub.schema(node.annotation)
    raise KeyError(f"the stubs define no {name}")


# --------------------------------------------------------------------------- reading a stub
@dataclass
class _Stub:
    """One stub module, parsed: its definitions, aliases and record classes by name."""

    tree: ast.Module
    defs: dict[str, ast.AST] = field(default_factory=dict)
    aliases: dict[str, ast.expr] = field(default_factory=dict)

    @staticmethod
    @cache
    def of(module: str) -> "_Stub":
        sources = stub_sources()
        if module not in sources:
            raise KeyError(f"there is no stub {module}.py")
        stub = _Stub(ast.parse(sources[module]))
        for node in stub.tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                stub.defs[node.name] = node
                if isinstance(node, ast.ClassDef):
                    for item in node.body:
                        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                            stub.defs[f"{node.name}.{item.name}"] = item
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                stub.defs[node.target.id] = node
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                stub.aliases[node.targets[0].id] = node.value
        return stub

    def record(self, name: str) -> S.Schema:
        node = self.defs.get(name)
        if not isinstance(node, ast.ClassDef):
            raise KeyError(name)
        bases = {ast.unparse(b) for b in node.bases}
        kind = "namedtuple" if bases & {"NamedTuple", "typing.NamedTuple"} else "dataclass"
        fields = {item.target.id: self.schema(item.annotation) for item in node.body
                  if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)}
        return S.RecordOf(name, kind, **fields)

    def schema(self, node: ast.expr | None) -> S.Schema:
        """The schema an annotation says (``Anything`` where it says nothing checkable)."""
        if node is None:
            return S.Anything()
        if isinstance(node, ast.Constant):
            if node.value is None:
                return S.NONE
            if isinstance(node.value, str):  # a forward reference
                return self.schema(ast.parse(node.value, mode="eval").body)
            return S.Anything()
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return _union([self.schema(node.left), self.schema(node.right)])
        text = ast.unparse(node)
        if isinstance(node, ast.Name):
            simple = {"int": S.INT, "float": S.FLOAT, "bool": S.BOOL, "str": S.STR, "bytes": S.BYTES, "None": S.NONE}
            if node.id in simple:
                return simple[node.id]
            if node.id in self.aliases:
                return self.schema(self.aliases[node.id])
            if isinstance(self.defs.get(node.id), ast.ClassDef):
                return self.record(node.id)
            return {"Tensor": S.Tensor()}.get(node.id, S.Anything())
        if isinstance(node, ast.Attribute):
            return {"torch.Tensor": S.Tensor(), "torch.dtype": S.DTYPE, "np.ndarray": S.NdArray(),
                    "numpy.ndarray": S.NdArray()}.get(text, S.Anything())
        if isinstance(node, ast.Subscript):
            head = ast.unparse(node.value)
            items = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
            if head in ("tuple", "typing.Tuple", "Tuple"):
                if len(items) == 2 and isinstance(items[1], ast.Constant) and items[1].value is Ellipsis:
                    return S.TupleOf(self.schema(items[0]))
                return S.Tuple(*(self.schema(i) for i in items))
            if head in ("list", "List", "typing.List"):
                return S.ListOf(self.schema(items[0]))
            if head in ("dict", "Dict", "typing.Dict"):
                return S.DictOf(self.schema(items[0]), self.schema(items[1]))
            if head in ("Optional", "typing.Optional"):
                return S.Optional(self.schema(items[0]))
            if head in ("Union", "typing.Union"):
                return _union([self.schema(i) for i in items])
            if head.rsplit(".", 1)[-1] in _JAXTYPING_FLOATS:  # Float[torch.Tensor, "batch seq"]
                return S.Tensor()
        return S.Anything()


_JAXTYPING_FLOATS = {"Float", "Float16", "Float32", "Float64", "BFloat16", "Inexact", "Shaped", "Real", "Num"}


def _union(options: list[S.Schema]) -> S.Schema:
    rest = [o for o in options if o is not S.NONE]
    if len(rest) == len(options):
        return S.OneOf(*rest)
    inner = rest[0] if len(rest) == 1 else S.OneOf(*rest)
    return S.Optional(inner)
