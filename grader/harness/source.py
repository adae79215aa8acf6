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
``X = <expression>`` aliases, the module's last unconditional binding of a name
winning (``einsum = torch.einsum`` after ``from einops import einsum`` is torch's,
and ``time_matmul = _other`` after ``def time_matmul`` runs ``_other``). Calls are
followed into the module's own helper functions and classes (``def _scores(q, k):
return einsum(...)``, ``Tape.grad(...)``), so splitting code into helpers changes
nothing. Code that cannot run is not read: a branch under a constant condition
(``if False:``, ``while 0:``), the ``if __name__ == "__main__":`` block of a
module that does not rebind ``__name__``, statements after a ``return`` or
``raise``. What a condition computed at run time decides is beyond a reading:
those branches are read as if they ran.
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
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    # each name's last binding by a top-level statement that always runs: what the name is once the
    # module has run (a def, a class, an assigned expression, or the import statement)
    final: dict[str, ast.AST] = field(default_factory=dict)
    rebinds_name: bool = False  # stores to ``__name__``: its ``__main__`` block may run after all

    @classmethod
    def parse(cls, text: str, name: str) -> "Module":
        """Raises ``SyntaxError`` for a file that does not parse. (Parsed once per text.)"""
        return _parse(text, name)

    @classmethod
    def _build(cls, text: str, name: str) -> "Module":
        module = cls(ast.parse(text), name)
        module.rebinds_name = any(isinstance(n, ast.Name) and n.id == "__name__" and not isinstance(n.ctx, ast.Load)
                                  for n in ast.walk(module.tree))
        for node in module.live(module.tree.body):
            module._top_level(node, always=True)
        return module

    def _top_level(self, node: ast.stmt, always: bool) -> None:
        """Note what ``node`` binds; ``always``: a statement that runs whatever happens (not in an
        ``if`` or a ``try``), so that its binding is the one the module ends with unless another follows."""
        bound: dict[str, ast.AST] = {}
        if isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                self.imports[local] = alias.name if alias.asname else alias.name.split(".")[0]
                bound[local] = node
        elif isinstance(node, ast.ImportFrom):
            base = ("." * node.level) + (node.module or "")
            for alias in node.names:
                self.imports[alias.asname or alias.name] = base + ("." if node.module else "") + alias.name
                bound[alias.asname or alias.name] = node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.functions[node.name] = bound[node.name] = node
        elif isinstance(node, ast.ClassDef):
            self.classes[node.name] = bound[node.name] = node
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            self.aliases[node.targets[0].id] = bound[node.targets[0].id] = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            self.aliases[node.target.id] = bound[node.target.id] = node.value
        elif isinstance(node, (ast.If, ast.Try)):  # `try: import x except ImportError: ...` and the like
            for child in self.live([*node.body, *getattr(node, "orelse", []), *getattr(node, "finalbody", []),
                                    *[s for h in getattr(node, "handlers", []) for s in h.body]]):
                self._top_level(child, always=False)
        if always:
            self.final.update(bound)

    # -- names ---------------------------------------------------------------------------
    def resolve(self, node: ast.expr, depth: int = 0) -> str | None:
        """The dotted name an expression stands for at top level (``e.einsum`` -> "einops.einsum")."""
        if depth > 8:
            return None
        if isinstance(node, ast.Name):
            final = self.final.get(node.id)
            if isinstance(final, ast.expr):  # rebound after any import of the name
                return self.resolve(final, depth + 1)
            if isinstance(final, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                return node.id
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
    def reachable(self, function: str) -> list[ast.AST]:
        """What calling ``function`` runs: the module's final binding of the name (a later
        ``function = other`` rebinds it) and every module-level function or class it names, transitively."""
        start = self.final.get(function) or self.functions.get(function)
        if start is None:
            return []
        if isinstance(start, (ast.Import, ast.ImportFrom)):  # imported over its own def: the import
            return [start]
        return self.closure([start])

    def import_time(self) -> list[ast.AST]:
        """What importing the module runs: its top-level statements, but of a function only its
        decorators, defaults and annotations, and of a class its body but its methods' bodies; and every
        module-level function or class those name, transitively."""
        return self.closure([part for node in self.live(self.tree.body) for part in _runs_when_defined(node)])

    def closure(self, roots: list[ast.AST]) -> list[ast.AST]:
        """``roots`` and the module-level functions and classes (and assigned expressions) they name."""
        found = list(roots)
        named: set[str] = set()
        todo = list(roots)
        while todo:
            for inner in self.walk(todo.pop()):
                if isinstance(inner, ast.Name) and inner.id not in named:
                    named.add(inner.id)
                    definition = self._definition(inner.id)
                    if definition is not None:
                        found.append(definition)
                        todo.append(definition)
        return found

    def _definition(self, name: str) -> ast.AST | None:
        final = self.final.get(name)
        if final is not None:
            return None if isinstance(final, (ast.Import, ast.ImportFrom)) else final
        return self.functions.get(name) or self.classes.get(name)

    def walk(self, node: ast.AST) -> Iterator[ast.AST]:
        """``ast.walk``, without the code that cannot run (see the module's docstring)."""
        todo = [node]
        while todo:
            node = todo.pop()
            yield node
            todo.extend(reversed(list(self._live_children(node))))

    def _live_children(self, node: ast.AST) -> Iterator[ast.AST]:
        if isinstance(node, (ast.If, ast.While, ast.IfExp)):
            truth = self.static_truth(node.test)
            if truth is False or (truth is True and not isinstance(node, ast.While)):
                yield node.test
                branch = node.body if truth else node.orelse
                yield from self.live(branch) if isinstance(branch, list) else [branch]
                return
        for _, value in ast.iter_fields(node):
            if isinstance(value, list):
                yield from self.live([v for v in value if isinstance(v, ast.AST)])
            elif isinstance(value, ast.AST):
                yield value

    def live(self, body: list) -> list:
        """A block's statements up to the first that always leaves it; a constant ``if`` at the top
        level is replaced by the branch it takes."""
        out = []
        for node in body:
            if isinstance(node, ast.If) and self.static_truth(node.test) is not None:
                out.extend(self.live(node.body if self.static_truth(node.test) else node.orelse))
                continue
            out.append(node)
            if isinstance(node, (ast.Return, ast.Raise, ast.Continue, ast.Break)):
                break
        return out

    def static_truth(self, test: ast.expr) -> bool | None:
        """What a condition always is, where a reading can tell: a constant, ``not`` one, and
        ``__name__ == "__main__"`` (false for an imported module that does not rebind ``__name__``)."""
        if isinstance(test, ast.Constant):
            return bool(test.value)
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = self.static_truth(test.operand)
            return None if inner is None else not inner
        if (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq))
                and not self.rebinds_name):
            sides = {ast.unparse(test.left), ast.unparse(test.comparators[0])}
            if sides == {"__name__", "'__main__'"}:
                return isinstance(test.ops[0], ast.NotEq)
        return None

    def calls(self, function: str, target: str) -> list[int]:
        """Lines where ``function`` (or a helper it calls) calls ``target`` ("einops.einsum")."""
        lines = []
        for node in self.reachable(function):
            for call in self._calls_in(node):
                if self.resolve(call.func) == target:
                    lines.append(call.lineno)
        return sorted(lines)

    def clock_reads(self, function: str) -> list[int]:
        """Lines where ``function`` (or a helper or class it uses) names a clock (``CLOCKS``): called
        there or handed on (``clock=time.perf_counter``, ``timeit.Timer(timer=time.process_time)``)."""
        lines = set()
        for node in self.reachable(function):
            for inner in self.walk(node):
                if isinstance(inner, (ast.Name, ast.Attribute)):
                    name = self.resolve(inner) or ""
                    if name in CLOCKS or name.startswith(CLOCK_MODULES):
                        lines.add(inner.lineno)
        return sorted(lines)

    def _calls_in(self, node: ast.AST) -> Iterator[ast.Call]:
        for inner in self.walk(node):
            if isinstance(inner, ast.Call):
                yield inner

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


def _runs_when_defined(node: ast.stmt) -> list[ast.AST]:
    """The parts of a top-level statement that run when the module runs it."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        args = node.args
        annotations = [a.annotation for a in [*args.posonlyargs, *args.args, *args.kwonlyargs,
                                               *filter(None, [args.vararg, args.kwarg])] if a.annotation]
        return [*node.decorator_list, *args.defaults, *filter(None, args.kw_defaults), *annotations,
                *filter(None, [node.returns])]
    if isinstance(node, ast.ClassDef):
        return [*node.decorator_list, *node.bases, *node.keywords,
                *[part for child in node.body for part in _runs_when_defined(child)]]
    return [node]


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
                     "locals", "vars", "dir", "open", "breakpoint", "builtins",
                     # text evaluated as code: string annotations and forward references
                     "get_type_hints", "get_annotations", "ForwardRef", "_eval_type",
                     "attrgetter", "methodcaller", "import_module"])
# module dunders a gradient may read; any other (``__builtins__``, ``__loader__``, ...) reaches around
PLAIN_DUNDERS = frozenset(["__name__", "__doc__", "__file__", "__all__", "__debug__"])
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

    Read: what importing the module runs (``Module.import_time``), each function and the
    module's helpers and classes it names, the package's ``__init__`` (it runs before any
    module), and, for names taken from the implementation's own other modules or its
    ``__init__``, what importing those runs and the functions used, transitively. Code
    that cannot run is left out (``Module.walk``). ``sources`` maps each of the
    implementation's module names (``__init__`` too) to its text.
    """
    sources = dict(items)
    findings: list[Finding] = []
    seen: set[tuple[str, str]] = set()
    parsed: dict[str, Module] = {}
    todo = [(PACKAGE, None), (module, None)] + [(module, f) for f in functions]
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
        nodes = mod.import_time() if function is None else mod.reachable(function)
        # the package's __init__ runs whatever is graded: of the modules it imports, follow only what it
        # calls (an __init__ that imports every module would otherwise charge the gradients with, say,
        # model.py's `from torch.nn import Parameter`)
        calls_only = name == PACKAGE and function is None
        for node in nodes:
            findings.extend(_inspect(mod, node, f"{name}.py", set(sources)))
            for sibling, used in _sibling_uses(mod, node, sources, calls_only=calls_only):
                todo.append((sibling, None))
                if used:
                    todo.append((sibling, used))
    return tuple(sorted(set(findings), key=lambda f: (not f.autograd, f.where)))


PACKAGE = "__init__"  # the package's own module: what ``from . import name`` reads a name from


def _inspect(mod: Module, root: ast.AST, file: str, siblings: set[str]) -> list[Finding]:
    found = []
    for node in mod.walk(root):
        where = f"{file}:{getattr(node, 'lineno', '?')}"
        for text in _string_annotations(node):  # evaluated by whatever reads annotations: read as code
            found.extend(_inspect(mod, text, file, siblings))
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
            elif node.attr.startswith("_") or node.attr in ESCAPES:
                found.append(Finding(where, f"uses .{node.attr}", False))
        elif isinstance(node, ast.Name):
            if node.id in ESCAPES and isinstance(node.ctx, ast.Load) and node.id not in mod.functions:
                found.append(Finding(where, f"uses {node.id}", False))
            elif (node.id.startswith("__") and node.id.endswith("__") and node.id not in PLAIN_DUNDERS
                  and isinstance(node.ctx, ast.Load)):
                found.append(Finding(where, f"uses {node.id}", False))
            elif node.id in AUTOGRAD and isinstance(node.ctx, ast.Load) and mod.imports.get(node.id):
                found.append(Finding(where, f"uses {mod.imports[node.id]}", True))
        elif isinstance(node, ast.keyword) and node.arg in AUTOGRAD:
            found.append(Finding(where, f"passes {node.arg}=", True))
    return found


def _string_annotations(node: ast.AST) -> Iterator[ast.expr]:
    """The annotations of ``node`` written as strings, parsed (at their own line)."""
    if isinstance(node, ast.arg):
        annotations = [node.annotation]
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        annotations = [node.returns]
    elif isinstance(node, ast.AnnAssign):
        annotations = [node.annotation]
    else:
        return
    for annotation in annotations:
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            try:
                parsed = ast.parse(annotation.value.strip(), mode="eval").body
            except SyntaxError:
                continue
            ast.increment_lineno(parsed, annotation.lineno - 1)
            yield parsed


def _autograd_name(dotted: str) -> bool:
    return any(part in AUTOGRAD or (part.startswith("_") and part != "__future__") for part in dotted.split("."))


def _sibling_uses(mod: Module, root: ast.AST, sources: dict[str, str],
                  calls_only: bool = False) -> Iterator[tuple[str, str | None]]:
    """(module, function or None) of the implementation's own modules that ``root`` uses; a name
    taken from the package itself (``from . import helper``) is the package ``__init__``'s.
    ``calls_only``: only what ``root`` calls, not what it imports or names."""
    for node in mod.walk(root):
        if calls_only:
            if isinstance(node, ast.Call):
                for used in _own(mod.resolve(node.func) or "", sources, first_only=True):
                    if used[0] != mod.name:
                        yield used
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                full = alias.name if isinstance(node, ast.Import) else \
                    "." * node.level + (node.module or "") + ("." if node.module else "") + alias.name
                yield from _own(full, sources, first_only=False)
        elif isinstance(node, (ast.Name, ast.Attribute)):
            for used in _own(mod.resolve(node) or "", sources, first_only=True):
                if used[0] != mod.name:
                    yield used


def _own(dotted: str, sources: dict[str, str], first_only: bool) -> Iterator[tuple[str, str | None]]:
    """The implementation's module (and the name used from it) that a dotted name stands for."""
    packaged = dotted.startswith(".") or dotted.split(".")[0] == "assignment"
    parts = [p for p in dotted.lstrip(".").split(".") if p and p != "assignment"]
    for i, part in enumerate(parts[:1] if first_only else parts):
        if part in sources:
            yield part, (parts[i + 1] if i + 1 < len(parts) else None)
            return
    if packaged and parts and PACKAGE in sources:
        yield PACKAGE, parts[0]
