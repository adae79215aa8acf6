"""Reading an implementation's source on the trusted side: parsed, never run.

Some facts a test needs are about how code is written, not what it returns: the
jaxtyping annotations of Part 6, whether Part 6 calls einops, whether Part 7
uses autograd, whether Part 5's timing reads a clock at all. Watching the code run can be fooled by the code itself (it runs
in the same process as the watcher), so these are read from the source text, on
the trusted side, with ``ast``:

    module = Module.parse(text, name="named")
    module.calls(function="attention_scores", target=("einops", "einsum"))   -> [line, ...]
    module.annotations("attention_scores")                                  -> {"q": Annotation(...), ...}

Names are resolved the way Python would at the module's top level: ``import
einops``, ``import einops as e``, ``from einops import einsum as es``, and
``X = <expression>`` aliases. Calls are followed into the module's own helper
functions (``def _scores(q, k): return einsum(...)``), so splitting code into
helpers changes nothing.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass, field
from typing import Iterator


@dataclass(frozen=True)
class Annotation:
    """A jaxtyping tensor annotation, as written: ``Float[torch.Tensor, "batch seq"]``."""

    dtype: str  # the jaxtyping dtype class: "Float", "Float32", "Shaped", ...
    array: str  # what it annotates: "torch.Tensor"
    dims: str  # the axis names: "batch seq"


@dataclass(frozen=True)
class Plain:
    """Any other annotation, as written (``int``), or none at all (``text == ""``)."""

    text: str


@dataclass
class Module:
    """One source file, parsed, with its top-level names resolved."""

    tree: ast.Module
    name: str
    imports: dict[str, str] = field(default_factory=dict)  # local name -> "module" or "module.attr"
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    aliases: dict[str, ast.expr] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str, name: str) -> "Module":
        """Raises ``SyntaxError`` for a file that does not parse. (Parsed once per text.)"""
        return _parse(text, name)

    @classmethod
    def _build(cls, text: str, name: str) -> "Module":
        module = cls(ast.parse(text), name)
        for node in module.tree.body:
            module._top_level(node)
        return module

    def _top_level(self, node: ast.stmt) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                self.imports[local] = alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            base = ("." * node.level) + (node.module or "")
            for alias in node.names:
                self.imports[alias.asname or alias.name] = base + ("." if node.module else "") + alias.name
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.functions[node.name] = node
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            self.aliases[node.targets[0].id] = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            self.aliases[node.target.id] = node.value
        elif isinstance(node, (ast.If, ast.Try)):  # `try: import x except ImportError: ...` and the like
            for child in [*node.body, *getattr(node, "orelse", []), *getattr(node, "finalbody", []),
                          *[s for h in getattr(node, "handlers", []) for s in h.body]]:
                self._top_level(child)

    # -- names ---------------------------------------------------------------------------
    def resolve(self, node: ast.expr, depth: int = 0) -> str | None:
        """The dotted name an expression stands for at top level (``e.einsum`` -> "einops.einsum")."""
        if depth > 8:
            return None
        if isinstance(node, ast.Name):
            if node.id in self.imports:
                return self.imports[node.id]
            if node.id in self.aliases:
                return self.resolve(self.aliases[node.id], depth + 1)
            return node.id
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value, depth + 1)
            return f"{base}.{node.attr}" if base else None
        return None

    # -- functions -------------------------------------------------------------------------
    def reachable(self, function: str) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
        """The function and every module-level function it calls by name, transitively."""
        seen: dict[str, ast.AST] = {}
        todo = [function]
        while todo:
            name = todo.pop()
            node = self.functions.get(name)
            if node is None or name in seen:
                continue
            seen[name] = node
            for inner in ast.walk(node):
                if isinstance(inner, ast.Name) and inner.id in self.functions:
                    todo.append(inner.id)
        return list(seen.values())

    def calls(self, function: str, target: str) -> list[int]:
        """Lines where ``function`` (or a helper it calls) calls ``target`` ("einops.einsum")."""
        lines = []
        for node in self.reachable(function):
            for call in _walk_calls(node):
                if self.resolve(call.func) == target:
                    lines.append(call.lineno)
        return sorted(lines)

    def clock_reads(self, function: str) -> list[int]:
        """Lines where ``function`` (or a helper it calls) reads a clock (``CLOCKS``)."""
        lines = []
        for node in self.reachable(function):
            for call in _walk_calls(node):
                name = self.resolve(call.func) or ""
                if name in CLOCKS or name.startswith(CLOCK_MODULES):
                    lines.append(call.lineno)
        return sorted(lines)

    def annotations(self, function: str) -> dict[str, Annotation | Plain] | None:
        """Each parameter's annotation and ``return``'s, as written; None if there is no such function."""
        node = self.functions.get(function)
        if node is None:
            return None
        args = node.args
        out: dict[str, Annotation | Plain] = {}
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
            out[arg.arg] = self.annotation(arg.annotation)
        out["return"] = self.annotation(node.returns)
        return out

    def annotation(self, node: ast.expr | None, depth: int = 0) -> Annotation | Plain:
        if node is None:
            return Plain("")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and depth < 4:  # a string annotation
            try:
                return self.annotation(ast.parse(node.value, mode="eval").body, depth + 1)
            except SyntaxError:
                return Plain(node.value)
        if isinstance(node, ast.Name) and node.id in self.aliases and depth < 8:
            return self.annotation(self.aliases[node.id], depth + 1)
        if isinstance(node, ast.Subscript):
            head = self.resolve(node.value) or ""
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if head.startswith("jaxtyping.") and len(items) == 2:
                array = self.resolve(items[0]) or ast.unparse(items[0])
                dims = items[1].value if isinstance(items[1], ast.Constant) and isinstance(items[1].value, str) else None
                if dims is not None:
                    return Annotation(head.removeprefix("jaxtyping."), array, dims)
        return Plain(ast.unparse(node))


# What measuring takes: a clock read, however it is spelled (Part 5's time_matmul).
CLOCKS = frozenset(["time.perf_counter", "time.perf_counter_ns", "time.time", "time.time_ns", "time.monotonic",
                    "time.monotonic_ns", "time.process_time", "time.process_time_ns", "time.thread_time",
                    "time.thread_time_ns", "time.clock_gettime", "time.clock_gettime_ns",
                    "datetime.datetime.now", "torch.cuda.Event"])
CLOCK_MODULES = ("timeit.", "torch.utils.benchmark.", "triton.testing.")


@functools.lru_cache(maxsize=64)
def _parse(text: str, name: str) -> Module:
    return Module._build(text, name)


def _walk_calls(node: ast.AST) -> Iterator[ast.Call]:
    for inner in ast.walk(node):
        if isinstance(inner, ast.Call):
            yield inner


# --------------------------------------------------------------------------- Part 7: no autograd
# What a gradient by hand may import: arithmetic and tensors, nothing that differentiates.
PLAIN_IMPORTS = ("__future__", "typing", "math", "numbers", "dataclasses", "numpy", "einops", "jaxtyping",
                 "torch", "torch.nn.functional", "torch.linalg")
# Names of autograd's entry points, wherever they appear as an attribute, a name or a keyword.
AUTOGRAD = frozenset([
    "backward", "grad", "grad_fn", "requires_grad", "requires_grad_", "retain_grad", "register_hook",
    "autograd", "func", "functorch", "vmap", "jacrev", "jacfwd", "vjp", "jvp", "hessian", "jacobian",
    "functional_call", "enable_grad", "set_grad_enabled", "inference_mode", "Parameter", "Function",
    "compile", "jit", "export", "fx", "library", "make_dual", "unpack_dual", "forward_ad",
])
# Ways to reach a name without writing it, which a reading of the source cannot follow.
ESCAPES = frozenset(["getattr", "setattr", "delattr", "eval", "exec", "compile", "__import__", "globals",
                     "locals", "vars", "dir", "open", "breakpoint"])
OWN = frozenset(["squared_error_grad", "linear_backward"])  # the spec's names may appear as themselves


@dataclass(frozen=True)
class Finding:
    """One place where code reachable from a gradient function could use autograd."""

    where: str  # "gradients.py:14"
    what: str  # "calls .backward()", "imports torch.autograd", "uses getattr"
    autograd: bool  # True: autograd itself; False: a way around reading the source


def audit_no_autograd(sources: dict[str, str], module: str, functions: tuple[str, ...]) -> list[Finding]:
    """See ``_audit``; the same sources are read once."""
    return list(_audit(tuple(sorted(sources.items())), module, functions))


@functools.lru_cache(maxsize=64)
def _audit(items: tuple[tuple[str, str], ...], module: str, functions: tuple[str, ...]) -> tuple[Finding, ...]:
    """Every use of autograd, or of a way to hide one, in code that ``functions`` of ``module`` run.

    Read: the module's top level (it runs at import), each function and the module's
    helpers it calls, and, for names imported from the implementation's own other
    modules, those modules' top levels and the functions used, transitively.
    ``sources`` maps each of the implementation's module names to its text.
    """
    sources = dict(items)
    findings: list[Finding] = []
    seen: set[tuple[str, str]] = set()
    parsed: dict[str, Module] = {}
    todo = [(module, None)] + [(module, f) for f in functions]
    while todo:
        name, function = todo.pop()
        if (name, str(function)) in seen or name not in sources:
            continue
        seen.add((name, str(function)))
        if name not in parsed:
            try:
                parsed[name] = Module.parse(sources[name], name)
            except SyntaxError:
                continue  # a module that does not parse does not import either: the call reports that
        mod = parsed[name]
        nodes = [n for n in mod.tree.body if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                 ast.ClassDef))] if function is None \
            else mod.reachable(function)
        for node in nodes:
            findings.extend(_inspect(mod, node, f"{name}.py", set(sources)))
            for sibling, used in _sibling_uses(mod, node, sources):
                todo.append((sibling, None))
                if used:
                    todo.append((sibling, used))
    return tuple(sorted(set(findings), key=lambda f: (not f.autograd, f.where)))


def _inspect(mod: Module, root: ast.AST, file: str, siblings: set[str]) -> list[Finding]:
    found = []
    for node in ast.walk(root):
        where = f"{file}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name not in PLAIN_IMPORTS and alias.name.split(".")[0] not in {"assignment", *siblings}:
                    found.append(Finding(where, f"imports {alias.name}", _autograd_name(alias.name)))
        elif isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level or source.split(".")[0] in {"assignment", *siblings}:
                continue  # the implementation's own modules: followed where they are used
            for alias in node.names:
                full = f"{source}.{alias.name}"
                if source not in PLAIN_IMPORTS or alias.name in AUTOGRAD or alias.name in ESCAPES \
                        or (alias.name.startswith("_") and source != "__future__"):
                    found.append(Finding(where, f"imports {full}", _autograd_name(full)))
        elif isinstance(node, ast.Attribute):
            if node.attr in AUTOGRAD or ("backward" in node.attr and node.attr not in OWN):
                found.append(Finding(where, f"uses .{node.attr}", True))
            elif node.attr.startswith("_"):
                found.append(Finding(where, f"uses .{node.attr}", False))
        elif isinstance(node, ast.Name):
            if node.id in ESCAPES and isinstance(node.ctx, ast.Load) and node.id not in mod.functions:
                found.append(Finding(where, f"uses {node.id}", False))
            elif node.id in AUTOGRAD and isinstance(node.ctx, ast.Load) and mod.imports.get(node.id):
                found.append(Finding(where, f"uses {mod.imports[node.id]}", True))
        elif isinstance(node, ast.keyword) and node.arg in AUTOGRAD:
            found.append(Finding(where, f"passes {node.arg}=", True))
    return found


def _autograd_name(dotted: str) -> bool:
    return any(part in AUTOGRAD or (part.startswith("_") and part != "__future__") for part in dotted.split("."))


def _sibling_uses(mod: Module, root: ast.AST, sources: dict[str, str]) -> Iterator[tuple[str, str | None]]:
    """(module, function or None) of the implementation's own modules that ``root`` uses."""
    for node in ast.walk(root):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                full = alias.name if isinstance(node, ast.Import) else \
                    "." * node.level + (node.module or "") + ("." if node.module else "") + alias.name
                parts = [p for p in full.lstrip(".").split(".") if p and p != "assignment"]
                for i, part in enumerate(parts):
                    if part in sources:
                        yield part, (parts[i + 1] if i + 1 < len(parts) else None)
        elif isinstance(node, (ast.Name, ast.Attribute)):
            resolved = mod.resolve(node) or ""
            parts = [p for p in resolved.lstrip(".").split(".") if p and p != "assignment"]
            if parts and parts[0] in sources and parts[0] != mod.name:
                yield parts[0], parts[1] if len(parts) > 1 else None
