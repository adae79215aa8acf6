"""Whether a submission reaches into the grader, read from its source on the trusted side.

The probes run in the submission's own process (they must call its functions), so
code of the submission could replace a probe, patch what a probe calls, or find the
harness's objects and change them: ``REGISTRY["part04.count_scenario"] = forged``,
``os.mkdir = quiet`` (a pickle's call that then does nothing), a dispatch mode
looked for to behave only while watched. Whatever such a probe reports is plain data
the trusted side checks, but the data would no longer be what the submission's
functions did. No reading can prove code harmless; this one refuses, anywhere in
the submission's modules (code that never runs too: nothing honest writes these),
the ways there are to get at code the submission did not write:

* importing the grader or the tests (``grader``, ``tests``, ``conftest``, pytest, hypothesis);
* names that reach other code's namespaces or frames: ``sys.modules``, ``gc.get_objects``,
  ``sys._getframe``, ``inspect.stack``, a frame's ``f_back``, a function's ``__globals__``,
  ``importlib``, ``__import__``, ``exec``, ``eval``, ``compile``, ``ctypes``;
* the private functions that tell whether a dispatch or function mode is active;
* replacing or changing a library's objects: a store into (or ``del`` of) an attribute or item of
  an imported module (``os.mkdir = f``, ``torch.Tensor.__eq__ = f``, ``probe.REGISTRY[k] = v``),
  ``setattr`` on one, or a call that changes a collection held there (``.update``, ``.pop``);
  torch's flags (``torch.backends.cudnn.benchmark = True``), ``os.environ`` and ``sys.path`` excepted;
* ``getattr``, ``setattr``, ``delattr`` or ``hasattr`` of a name built at run time on anything but
  ``self`` (``getattr(torch, name)`` may reach ``torch.sys``; ``getattr(torch, f"float{bits}")``, a
  dtype's prefix written out, may not), a lookup of such a name written out
  (``namespace["__import__"]``), and ``object.__setattr__`` or ``__dict__`` of anything but
  ``self`` (a frozen dataclass's ``__post_init__``).

A module's code runs only in the workers that import it (each part's questions go to a
worker that imported that part's module alone, with what it imports:
``grader.harness.transport.ALONE``), so such a line can touch only those parts, and only
their tests fail (``imported_with``): the tests of the part whose module has it, of any part
whose module imports that module, and, for the package's ``__init__`` (every worker runs
it), every test. The same reading runs in the public tests, so a student sees the refusal
at home, with the line to change, before grading does.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

# the packages of the grader, the tests and the test runner: no module of a submission needs them
# (and what imports by a name given as text, reaches memory by address, or swaps the built-ins)
FORBIDDEN_IMPORTS = frozenset(["grader", "tests", "selftest", "conftest", "pytest", "_pytest", "hypothesis",
                               "pluggy", "importlib", "ctypes", "_ctypes", "builtins", "__builtin__"])
# inspect's functions that hand back frames (its others, ``signature``, are plain)
FRAME_FUNCTIONS = frozenset(["inspect.stack", "inspect.trace", "inspect.currentframe", "inspect.getouterframes",
                             "inspect.getinnerframes"])
# built-in names that run text as code or import by a name given as text
RUNNERS = frozenset(["exec", "eval", "compile", "__import__", "breakpoint", "globals", "vars"])
# what runs a statement given as text (its text is read as code here; text built at run time is refused)
TEXT_RUNNERS = frozenset(["timeit.timeit", "timeit.repeat", "timeit.Timer", "torch.utils.benchmark.Timer",
                          "torch.utils.benchmark.utils.timer.Timer"])
# attributes that lead to another module's namespace, a caller's frame, or every live object, whatever
# they are read on (``torch.sys.modules`` is ``sys.modules``)
REACHING = frozenset(["_getframe", "_current_frames", "_current_exceptions", "settrace", "setprofile",
                      "get_objects", "get_referrers", "get_referents", "currentframe", "getouterframes",
                      "getinnerframes", "f_back", "f_globals", "f_locals", "f_builtins", "f_code", "tb_frame",
                      "gi_frame", "cr_frame", "ag_frame", "__globals__", "__closure__", "__code__",
                      "__builtins__", "__subclasses__", "__dict__", "__import__", "__loader__", "__spec__",
                      "addaudithook", "import_module", "__setattr__", "__delattr__", "__getattribute__",
                      "__func__", "__self__", "__mro__", "__base__", "__bases__", "__reduce__", "__reduce_ex__",
                      "__objclass__", "__defaults__", "__kwdefaults__", "__wrapped__", "ctypes", "ctypeslib"])
# torch's private functions that tell whether a dispatch or function mode (a watcher) is active
MODE_PEEKS = frozenset(["_get_current_dispatch_mode", "_get_current_dispatch_mode_stack",
                        "_len_torch_dispatch_stack", "_get_dispatch_stack_at", "_get_dispatch_mode",
                        "is_in_torch_dispatch_mode", "_get_current_function_mode", "_get_current_function_mode_stack",
                        "_len_torch_function_stack", "_get_function_stack_at", "_is_torch_function_mode_enabled",
                        "_pop_mode", "_pop_torch_dispatch_stack", "_pop_torch_function_stack",
                        "_unset_dispatch_mode"])
# what of a library's may be set: flags and the environment, not code (each with what is inside it)
SETTABLE = ("torch.backends", "os.environ", "sys.path", "torch._dynamo.config", "torch._inductor.config",
            "torch._functorch.config")
# a dtype looked up by a name built from one of these (``getattr(torch, f"float{bits}")``): nothing of torch's
# that starts so leads anywhere
DTYPE_PREFIXES = ("float", "bfloat", "int", "uint", "complex", "double", "half", "bool", "long", "short")
# calls that change a dict or a list in place
MUTATORS = frozenset(["update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__", "append",
                      "extend", "insert"])
# ``object.__setattr__(self, ...)``: how a frozen dataclass sets its own fields
OWN_SETTERS = frozenset(["__setattr__", "__delattr__"])


def _settable(dotted: str) -> bool:
    return any(dotted == place or dotted.startswith(place + ".") for place in SETTABLE)


@dataclass(frozen=True)
class Reach:
    """One place a submission reaches into code it did not write."""

    where: str  # "flops.py:12"
    what: str  # "imports grader.harness.probe"

    @property
    def module(self) -> str:
        return self.where.rsplit(".py:", 1)[0]


def reaches(sources: dict[str, str]) -> list[Reach]:
    """Every place in ``sources`` (each module's short name to its text) that reaches into other code."""
    found: list[Reach] = []
    for name, text in sorted(sources.items()):
        try:
            tree = ast.parse(text, filename=f"{name}.py")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue  # it does not import, and fails every test for that
        found += _Reader(f"{name}.py", _imported(tree)).read(tree)
    return found


def imported_with(sources: dict[str, str], module: str) -> set[str]:
    """``module``, the package's ``__init__`` and the submission's modules they import, transitively
    (``from . import x``, ``from .x import y``, ``import assignment.x``, ``from assignment import x``)."""
    seen, todo = set(), [module, "__init__"]
    while todo:
        name = todo.pop()
        if name in seen or name not in sources and name != module:
            continue
        seen.add(name)
        try:
            tree = ast.parse(sources.get(name, ""))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                own = node.level > 0 or (node.module or "").split(".")[0] == "assignment"
                base = (node.module or "").split(".")
                inner = base[1:] if node.level == 0 else base if node.module else []
                if own:
                    todo += inner[:1] or [alias.name for alias in node.names]
            elif isinstance(node, ast.Import):
                todo += [alias.name.split(".")[1] for alias in node.names
                         if alias.name.startswith("assignment.")]
    return seen


def _dtype_name(name: ast.AST) -> bool:
    """Whether a name built at run time starts with a dtype's prefix written out (``f"float{bits}"``,
    ``"int" + str(bits)``)."""
    while isinstance(name, ast.BinOp) and isinstance(name.op, ast.Add):
        name = name.left
    if isinstance(name, ast.JoinedStr) and name.values:
        name = name.values[0]
    return isinstance(name, ast.Constant) and isinstance(name.value, str) and name.value.startswith(DTYPE_PREFIXES)


def _imported(tree: ast.AST) -> dict[str, str]:
    """Names bound by an absolute import anywhere in the module, to what they name (``np`` -> ``numpy``)."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    names[alias.asname] = alias.name
                else:
                    root = alias.name.split(".")[0]
                    names[root] = root
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                if alias.name != "*":
                    names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


class _Reader(ast.NodeVisitor):
    def __init__(self, file: str, imported: dict[str, str]) -> None:
        self.file, self.imported = file, imported
        self.found: list[Reach] = []
        self.own_setters: set[int] = set()  # ``object.__setattr__`` nodes called on ``self`` (and ``vars(self)``)
        self.called: set[int] = set()  # attribute nodes called at once (``model.modules()``)

    def read(self, tree: ast.AST) -> list[Reach]:
        self.visit(tree)
        return self.found

    def _add(self, node: ast.AST, what: str) -> None:
        self.found.append(Reach(f"{self.file}:{getattr(node, 'lineno', 0)}", what))

    def dotted(self, node: ast.AST) -> str | None:
        """An imported name's dotted path (``np.random.seed`` -> ``numpy.random.seed``), else None."""
        if isinstance(node, ast.Name):
            return self.imported.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self.dotted(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    def _library_object(self, node: ast.AST) -> str | None:
        """The dotted name of what a store or a mutating call changes, where it belongs to an imported module."""
        while isinstance(node, ast.Subscript):
            node = node.value
        if isinstance(node, ast.Attribute):
            return self.dotted(node)
        return None

    def _changes(self, node: ast.AST, target: ast.AST, verb: str) -> None:
        dotted = self._library_object(target)
        if dotted and not _settable(dotted):
            self._add(node, f"{verb} {dotted}, an object of a library it imports")

    def _read_text(self, call: ast.Call) -> None:
        """A timer's statement and setup, given as text: read as code where written out, refused where built."""
        texts = [*call.args[:2], *(k.value for k in call.keywords if k.arg in ("stmt", "setup"))]
        for text in texts:
            if isinstance(text, ast.Constant) and isinstance(text.value, str):
                try:
                    inner = ast.parse(text.value)
                except (SyntaxError, ValueError, RecursionError, MemoryError):
                    continue  # the timer fails to compile it too
                for reach in _Reader(self.file, {**self.imported, **_imported(inner)}).read(inner):
                    self._add(call, f"{reach.what} (in the text the timer runs)")
            elif not isinstance(text, (ast.Lambda, ast.Name, ast.Attribute)):  # a callable is timed as code
                self._add(call, "hands a timer text built at run time")

    # imports
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.split(".")[0] in FORBIDDEN_IMPORTS:
                self._add(node, f"imports {alias.name}")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        forbidden = node.level == 0 and node.module and node.module.split(".")[0] in FORBIDDEN_IMPORTS
        for alias in node.names:
            if forbidden or alias.name in MODE_PEEKS or alias.name in REACHING \
                    or f"{node.module}.{alias.name}" in FRAME_FUNCTIONS:
                self._add(node, f"imports {alias.name} from {node.module}")

    # names and attributes
    def visit_Name(self, node: ast.Name) -> None:
        if node.id in RUNNERS and node.id not in self.imported and id(node) not in self.own_setters:
            self._add(node, f"uses {node.id}")
        elif node.id in MODE_PEEKS or node.id in ("__builtins__", "__loader__", "__spec__"):
            self._add(node, f"uses {node.id}")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        own_dict = node.attr == "__dict__" and isinstance(node.value, ast.Name) and node.value.id == "self"
        if (node.attr in REACHING or node.attr in MODE_PEEKS) and id(node) not in self.own_setters and not own_dict:
            self._add(node, f"uses .{node.attr}")
        elif node.attr == "modules" and id(node) not in self.called:  # (a model's .modules() is called)
            self._add(node, "uses .modules (sys.modules?)")
        elif self.dotted(node) in FRAME_FUNCTIONS:
            self._add(node, f"uses {self.dotted(node)}")
        self.generic_visit(node)

    # stores into a library's objects
    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            for each in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]):
                self._changes(node, each, "replaces")
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._changes(node, node.target, "replaces")
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._changes(node, node.target, "replaces")
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            self._changes(node, target, "deletes")
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str) and (
                key.value in REACHING | RUNNERS | MODE_PEEKS or key.value.split(".")[0] in FORBIDDEN_IMPORTS):
            self._add(node, f"looks up {key.value!r}")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute):
            self.called.add(id(func))
        if isinstance(func, ast.Name) and func.id in ("getattr", "setattr", "delattr", "hasattr") \
                and func.id not in self.imported and len(node.args) >= 2:
            target, name = node.args[0], node.args[1]
            built = not (isinstance(name, ast.Constant) and isinstance(name.value, str))
            own = isinstance(target, ast.Name) and target.id in ("self", "cls")
            if built and not own and not (self.dotted(target) == "torch" and _dtype_name(name)):
                self._add(node, f"uses {func.id} with a name built at run time")
            elif not built and name.value in REACHING | MODE_PEEKS:
                self._add(node, f"uses {func.id} of {name.value!r}")
            elif not built and func.id in ("setattr", "delattr"):
                dotted = self.dotted(target)
                if dotted and not _settable(f"{dotted}.{name.value}"):
                    self._add(node, f"uses {func.id} on {dotted}, a library it imports")
        elif self.dotted(func) in TEXT_RUNNERS:
            self._read_text(node)
        elif isinstance(func, ast.Attribute) and func.attr in MUTATORS:
            self._changes(node, func.value, f"calls .{func.attr} on")
        elif isinstance(func, ast.Name) and func.id == "vars" and len(node.args) == 1 \
                and isinstance(node.args[0], ast.Name) and node.args[0].id == "self":
            self.own_setters.add(id(func))
        elif isinstance(func, ast.Attribute) and func.attr in OWN_SETTERS and node.args \
                and isinstance(node.args[0], ast.Name) and node.args[0].id in ("self", "cls"):
            self.own_setters.add(id(func))
        self.generic_visit(node)
