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
nothing. A name that only a star import binds is read where it comes from
(``Module.starred``): a library's as installed (``from jaxtyping import *`` binds
``Float``), and, given the implementation's other modules, a module of its own
(``from ._bench import *``) that lists the name in its ``__all__`` (or has none and
the name is public) and binds it once, in a statement that always runs; where the
last star import that may bind it cannot be told, the name is read as nothing.
Code that cannot run is not read: a branch under a constant condition
(``if False:``, ``while 0:``), the ``if __name__ == "__main__":`` block of a
module that does not rebind ``__name__`` (nor could: no store to an attribute of
that name, no ``setattr``, ``sys.modules``, ``globals()`` and the like; the same
for ``if TYPE_CHECKING:``), statements after a ``return`` or
``raise``; where a reading that misses something costs the submission (a clock or
einops it must use), also a branch under a flag bound once to a constant
(``USE_EINOPS = False``). Names resolve in a function's own scope too: its local
imports, aliases and parameter defaults (``clock=time.perf_counter``), and a local
of the same name shadows the module's. A function rebound where a reading cannot
follow (a loop, a walrus, a ``global``) reads as nothing. What a condition
computed at run time decides is beyond a reading: those branches are read as if
they ran.
"""

from __future__ import annotations

import ast
import builtins
import collections
import functools
import importlib
import re
import types
from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator


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


FIXED = "fixed"  # ``Module.walk``'s flags where a name must not be found: only flags nothing can change


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
    # the tests of its top-level ``if __name__ == "__main__":`` blocks (no ``else``): never run when graded,
    # whatever it does to ``__name__`` (staging takes them out, ``strip_main_blocks``)
    main_tests: set[int] = field(default_factory=set)
    sets_type_checking: bool = False  # may set ``typing.TYPE_CHECKING``: its ``if TYPE_CHECKING:`` may run
    stores: dict[str, int] = field(default_factory=dict)  # how often each name is bound, anywhere in the file
    stars: list[str] = field(default_factory=list)  # the modules of its ``from M import *``
    # the same in order, each with whether its statement always runs (not in an ``if`` or a ``try``'s handler)
    star_imports: list[tuple[str, bool]] = field(default_factory=list)
    # how often each name is bound by the module's own top-level code, anywhere in it (in an ``if``, a loop,
    # a ``try``, code that never runs; a ``global`` in a function counts twice): 1 is one binding, and no
    # entry means that only a star import can bind it
    bindings: dict[str, int] = field(default_factory=dict)
    declared_global: set[str] = field(default_factory=set)  # names some function rebinds with ``global``
    # a sibling's name it takes (``.model._derive``) -> the library object that sibling bound it to
    # (``torch.autograd.grad``): read in a package, as ``_read_package`` sets it (``_through_siblings``)
    through: dict[str, str] = field(default_factory=dict)
    # the package's modules' trees, this one's included, where it is read in a package (``_read_package``);
    # None where it is read alone: then no flag decides a branch where a name must not be found (``FIXED``)
    package: tuple[ast.Module, ...] | None = None
    _fixed_flags: dict[str, bool] = field(default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def parse(cls, text: str, name: str) -> "Module":
        """Raises ``SyntaxError`` for a file that does not parse. (Parsed once per text.)"""
        return _parse(text, name)

    @classmethod
    def _build(cls, tree: ast.Module, name: str) -> "Module":
        module = cls(tree, name)
        for n in walk(module.tree):
            names = [n.id] if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load) else \
                list(n.names) if isinstance(n, (ast.Global, ast.Nonlocal)) else \
                [n.name] if isinstance(n, (ast.MatchAs, ast.MatchStar, ast.ExceptHandler)) and n.name else \
                [n.rest] if isinstance(n, ast.MatchMapping) and n.rest else []  # a capture stores as `=` does
            for name in names:  # a `global` declaration counts as a binding elsewhere: never a constant
                module.stores[name] = module.stores.get(name, 0) + (2 if isinstance(n, (ast.Global, ast.Nonlocal)) else 1)
            if isinstance(n, ast.Global):
                module.declared_global.update(n.names)
        # any binding at all (a parameter, a match capture, an import's alias), not only a store; or a
        # way to set a module's attribute of that name (``sys.modules[__name__].__name__ = "__main__"``)
        module.rebinds_name = _bound_counts(module.tree)["__name__"] > 0 or _may_set(module.tree, "__name__")
        module.main_tests = {id(node.test) for node in tree.body if is_main_block(node)}
        module.sets_type_checking = _may_set(module.tree, "TYPE_CHECKING")
        module.bindings = _module_bindings(module.tree, module.declared_global)
        for node in module.live(module.tree.body):
            module._top_level(node, always=True)
        return module

    def _top_level(self, node: ast.stmt, always: bool) -> None:
        """Note what ``node`` binds; ``always``: a statement that runs whatever happens (not in an
        ``if`` or a ``try``), so that its binding is the one the module ends with unless another follows."""
        bound: dict[str, ast.AST] = {}
        if isinstance(node, ast.Import):
            for alias in node.names:
                local, dotted = _import_binding(alias)
                self.imports[local] = dotted
                bound[local] = node
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name == "*":
                    self.stars.append("." * node.level + (node.module or ""))
                    self.star_imports.append((self.stars[-1], always))
                    continue
                self.imports[alias.asname or alias.name] = _from_name(node, alias)
                bound[alias.asname or alias.name] = node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.functions[node.name] = bound[node.name] = node
        elif isinstance(node, ast.ClassDef):
            self.classes[node.name] = bound[node.name] = node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                for name, value in _assigned(target, node.value):
                    self.aliases[name] = bound[name] = value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            self.aliases[node.target.id] = bound[node.target.id] = node.value
        elif isinstance(node, ast.Try):  # `try: import x except ImportError: x = None`: the body is what runs
            for child in self.live(node.body) + self.live(node.finalbody):
                self._top_level(child, always=always)
            for child in self.live([*node.orelse, *[s for h in node.handlers for s in h.body]]):
                self._top_level(child, always=False)
        elif isinstance(node, ast.If):
            for child in self.live([*node.body, *node.orelse]):
                self._top_level(child, always=False)
        if always:
            self.final.update(bound)

    # -- names ---------------------------------------------------------------------------
    def resolve(self, node: ast.expr, depth: int = 0, scope: dict[str, str] | None = None,
                sources: dict[str, str] | None = None, through_global: bool = False) -> str | None:
        """The dotted name an expression stands for (``e.einsum`` -> "einops.einsum"): at top level, or
        within a function whose local names (``Module.scope``) are ``scope``. ``sources`` (module name
        -> text, the implementation's): a name only a ``from .helpers import *`` binds is read there
        (``Module.starred``); a definition of that module's own is named ``._helpers.name``."""
        if depth > 8:
            return None
        if isinstance(node, ast.Name) and scope and node.id in scope:
            return self._library(scope[node.id]) or None  # "": a local the reading cannot name
        if isinstance(node, ast.Name):
            if node.id in self.declared_global and not through_global:  # a function rebinds it as it runs: what
                return None  # it is cannot be read (``through_global``: read as its binding at the top, all the same)
            final = self.final.get(node.id)
            if isinstance(final, ast.expr):  # rebound after any import of the name
                return self.resolve(final, depth + 1, sources=sources)
            if isinstance(final, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                return node.id
            if node.id in self.imports:
                return self._library(self.imports[node.id])
            if node.id in self.aliases:
                return self.resolve(self.aliases[node.id], depth + 1, sources=sources)
            if node.id not in self.bindings:  # `from time import *`, `from ._bench import *`
                return self.starred(node.id, sources) or node.id
            return node.id
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value, depth + 1, scope, sources, through_global)
            return self._library(f"{base}.{node.attr}") if base else None
        name = _literal_getattr(node)
        if name is not None and self.resolve(node.func, depth + 1, scope, sources) == "getattr":
            base = self.resolve(node.args[0], depth + 1, scope, sources)  # `getattr(torch, "utils")` is torch.utils
            return f"{base}.{name}" if base else None
        return None

    def _library(self, dotted: str) -> str:
        """``dotted``, or the library object a sibling bound it to where it names a sibling's name
        (``.model._derive`` -> ``torch.autograd.grad``, and what follows: ``.model.ag.grad``)."""
        for taken, library in self.through.items():
            if dotted == taken or dotted.startswith(taken + "."):
                return library + dotted[len(taken):]
        return dotted

    def starred(self, name: str, sources: dict[str, str] | None = None, depth: int = 0) -> str | None:
        """What ``name``, which none of the module's own statements binds, stands for when its star
        imports bind it (None: none does, or which one wins cannot be told). Python binds it from the
        last star import that brings it, so that one is read, if its statement always runs (or no other
        could bind the name). A star import brings a name if: for a library a reading knows
        (``STAR_LIBRARIES``), what ``from M import *`` binds, as installed; for another library, the
        names ``STARRED`` lists (any other may be brought: it cannot be told); for a module of the
        implementation (``from ._bench import *``, in ``sources``), a name its ``__all__`` lists, or a
        public one without an ``__all__``, that the module binds once, with a statement that always
        runs, or brings from its own star imports. A name bound only in a branch that never runs,
        bound twice, or listed by an ``__all__`` that is not a plain list of strings cannot be told."""
        found = self._star_candidates(name, sources, depth, {self.name})
        return found or None

    def _star_candidates(self, name: str, sources: dict[str, str] | None, depth: int,
                         opened: set[str]) -> str | None:
        """``starred``, but "" where a star import may bind the name and what it is cannot be told.
        ``opened``: the implementation's modules this lookup has read already (see ``_star_brings``)."""
        # each module once, at its last star import (which runs for sure if any of its imports does):
        # a module star-importing one module over and over would make a reading of it explode
        last: dict[str, bool] = {}
        for star, always in self.star_imports:
            last[star] = last.pop(star, False) or always
        if len(last) > MAX_STARS:
            return ""
        brought = []
        for star, always in last.items():
            found = _star_brings(star, name, sources, depth, opened)
            if found is not None:
                brought.append((found, always))
        if not brought:
            return None
        found, always = brought[-1]
        return found if always or len(brought) == 1 else ""

    def scope(self, function: ast.AST, sources: dict[str, str] | None = None, strict: bool = False) -> dict[str, str]:
        """A function's local names that stand for something a reading can name: its own imports
        (``from time import perf_counter`` inside it), aliases (``einsum = torch.einsum``) and parameter
        defaults (``clock=time.perf_counter``); any other parameter or local shadows the module's name.
        ``strict``: as ``read_names``'s."""
        local: dict[str, str] = {}
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = function.args
            positional = [*args.posonlyargs, *args.args]
            defaults = dict(zip([a.arg for a in positional][len(positional) - len(args.defaults):], args.defaults))
            defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
            for arg in [*positional, *args.kwonlyargs, *filter(None, [args.vararg, args.kwarg])]:
                local[arg.arg] = (self.resolve(defaults[arg.arg], sources=sources) or "") if arg.arg in defaults else ""
        for node in self.walk(function, flags=FIXED if strict else True):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    name, dotted = _import_binding(alias)
                    local[name] = dotted
            elif isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    if alias.name != "*":
                        local[alias.asname or alias.name] = _from_name(node, alias)
            elif isinstance(node, ast.Assign) and node is not function:
                for target in node.targets:
                    for name, value in _assigned(target, node.value):
                        local[name] = self.resolve(value, scope=local, sources=sources) or ""
        return local

    # -- functions -------------------------------------------------------------------------
    def reachable(self, function: str) -> list[ast.AST]:
        """What calling ``function`` runs: the module's final binding of the name (a later
        ``function = other`` rebinds it) and every module-level function or class it names, transitively."""
        start = self.final.get(function) or self.functions.get(function)
        if start is None:  # bound only where it may not run (under an `if`): every statement that binds it
            return self.closure(_binding_statements(self.tree, function)) if function in self.bindings else []
        if isinstance(start, (ast.Import, ast.ImportFrom)):  # imported over its own def: the import
            return [start]
        return self.closure([start])

    def import_time(self) -> list[ast.AST]:
        """What importing the module runs: its top-level statements, but of a function only its
        decorators, defaults and annotations, and of a class its body but its methods' bodies; and every
        module-level function or class those name, transitively. An annotation that only names things
        (``-> Ledger``, ``list[Ledger] | None``) calls none of them: of a class it names, only the
        dunders its subscript or ``|`` may call run, not the methods a call of it would."""
        parts = [part for node in self.live(self.tree.body) for part in _runs_when_defined(node, self)]
        inert = {id(part) for node in self.live(self.tree.body) for part in _annotations_when_defined(node)
                 if _names_only(part)}
        found = self.closure([part for part in parts if id(part) not in inert])
        named = {id(node) for node in found}
        dunders = [method for part in parts if id(part) in inert for inner in walk(part)
                   if isinstance(inner, ast.Name) and isinstance(self._definition(inner.id), ast.ClassDef)
                   and id(self._definition(inner.id)) not in named
                   for method in self._definition(inner.id).body
                   if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and method.name.startswith("__")]
        return found + [part for part in parts if id(part) in inert] + self.closure(dunders)

    def handed_on(self) -> list[ast.AST]:
        """The functions whose object the module hands, as it is defined, to code that may keep it where no
        reading of a name follows (``@register`` putting it in a table, a decorator binding it under another
        name, ``global len``): a def decorated by anything but a decorator that only wraps it
        (``WRAPPING_DECORATORS``), and every method of a class so decorated. Where a name must NOT be found,
        they are read as code that any function may run (one that is never called reads the same)."""
        known = self.__dict__.get("_handed_on")
        if known is not None:
            return known
        found: list[ast.AST] = []
        todo: list[tuple[list, ast.ClassDef | None]] = [(self.tree.body, None)]
        while todo:
            body, in_class = todo.pop()
            for node in self.live(body):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    if not all(_wraps_only(d, self, in_class) for d in node.decorator_list):
                        found.append(node)
                elif isinstance(node, ast.ClassDef):
                    if all(_wraps_only(d, self, None) for d in node.decorator_list):
                        todo.append((node.body, node))
                    else:  # the class is handed on: what it is given may call any of its methods
                        found += [n for n in walk(node) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
                else:  # a def under a top-level `if`, `try`, `with` or loop is defined there all the same
                    for block in ("body", "orelse", "finalbody"):
                        if isinstance(getattr(node, block, None), list):
                            todo.append((getattr(node, block), in_class))
                    todo += [(handler.body, in_class) for handler in getattr(node, "handlers", ())]
                    todo += [(case.body, in_class) for case in getattr(node, "cases", ())]
        self._handed_on = found
        return found

    def closure(self, roots: list[ast.AST]) -> list[ast.AST]:
        """``roots`` and the module-level functions and classes (and assigned expressions) they name."""
        found = list(roots)
        named: set[str] = set()
        todo = list(roots)
        while todo:
            root = todo.pop()
            local, outer, later = _locals(root), _enclosing_ids(root), _call_time(root)
            for inner in self.walk(root):
                if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Load) and inner.id not in named \
                        and (inner.id not in local or id(inner) in outer):
                    named.add(inner.id)
                    for definition in self._definitions(inner.id, at_import=id(inner) not in later):
                        found.append(definition)
                        todo.append(definition)
        return found

    def _definition(self, name: str) -> ast.AST | None:
        final = self.final.get(name)
        if final is not None:
            return None if isinstance(final, (ast.Import, ast.ImportFrom)) else final
        return self.functions.get(name) or self.classes.get(name)

    def _definitions(self, name: str, at_import: bool) -> list[ast.AST]:
        """What a module-level name read may be: its final definition (``_definition``); read ``at_import`` (by a
        decorator, a class body, a call at the module's top) where the module binds it more than once, every
        statement binding it too, as such a read meets the binding of its moment (``@D`` under a first ``def D``,
        a second ``def D`` after). A function's body runs once the module is imported: its final binding, where one
        is known; a name bound only in branches (``if hasattr(einops, "einsum"): def f ... else: def f ...``) may
        be any of them, and each is read."""
        definition = self._definition(name)
        branches = name not in self.final and self.bindings.get(name, 0) >= 2
        if definition is None or not (at_import or branches) or self.bindings.get(name, 0) < 2:
            return [definition] if definition is not None else []
        return list(dict.fromkeys([definition, *_binding_statements(self.tree, name)]))

    def walk(self, node: ast.AST, flags: bool | str = False) -> Iterator[ast.AST]:
        """``ast.walk``, without the code that cannot run (see the module's docstring). ``flags``: a
        name bound once to a constant (``USE_EINOPS = False``) decides a branch too: where reading less
        can cost the submission (a clock or einops it must use). ``flags=FIXED``: only a flag nothing can
        change, where reading less would hide something (a name that must not be found): another module
        may set a flag (``gradients.CHECK = True``), and a star import bind it again."""
        todo = [node]
        while todo:
            node = todo.pop()
            yield node
            todo.extend(reversed(list(self._live_children(node, flags))))

    def _live_children(self, node: ast.AST, flags: bool | str = False) -> Iterator[ast.AST]:
        if isinstance(node, ast.BoolOp):
            yield from self._short_circuit(node, flags)
            return
        if isinstance(node, (ast.If, ast.While, ast.IfExp)):
            truth = self.static_truth(node.test, flags)
            if truth is False or (truth is True and not isinstance(node, ast.While)):
                yield node.test
                branch = node.body if truth else node.orelse
                yield from self.live(branch, flags) if isinstance(branch, list) else [branch]
                return
        for _, value in ast.iter_fields(node):
            if isinstance(value, list):
                yield from self.live([v for v in value if isinstance(v, ast.AST)], flags)
            elif isinstance(value, ast.AST):
                yield value

    def live(self, body: list, flags: bool | str = False) -> list:
        """A block's statements up to the first that always leaves it; a constant ``if`` at the top
        level is replaced by the branch it takes."""
        out = []
        for node in body:
            truth = self.static_truth(node.test, flags) if isinstance(node, ast.If) else None
            if truth is not None:
                out.extend(self.live(node.body if truth else node.orelse, flags))
                continue
            out.append(node)
            if isinstance(node, (ast.Return, ast.Raise, ast.Continue, ast.Break)):
                break
        return out

    def static_truth(self, test: ast.expr, flags: bool | str = False) -> bool | None:
        """What a condition always is, where a reading can tell: a constant, ``not`` one, and
        ``__name__ == "__main__"`` (false for an imported module that does not rebind ``__name__``, and
        always for a top-level block staging takes out, ``main_tests``)."""
        if id(test) in self.main_tests:
            return False
        if isinstance(test, ast.Constant):
            return bool(test.value)
        if isinstance(test, (ast.Name, ast.Attribute)) and self.resolve(test) == "typing.TYPE_CHECKING" \
                and _bound_counts(self.tree)[_head(test)] == 1 and not self.sets_type_checking:
            return False  # the import, no parameter or capture of it, and nothing that may set it
        if flags and isinstance(test, ast.Name) and _bound_counts(self.tree)[test.id] == 1 and \
                isinstance(self.final.get(test.id), ast.Constant) and (flags is not FIXED or self._fixed(test.id)):
            return bool(self.final[test.id].value)  # a flag set once: USE_EINOPS = False
        if isinstance(test, ast.BoolOp):
            truths = [self.static_truth(v, flags) for v in test.values]
            decisive = isinstance(test.op, ast.Or)  # an Or is decided by a true operand, an And by a false one
            if decisive in truths:
                return decisive
            return (not decisive) if all(t is not None for t in truths) else None
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = self.static_truth(test.operand, flags)
            return None if inner is None else not inner
        if (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq))
                and not self.rebinds_name):
            sides = {ast.unparse(test.left), ast.unparse(test.comparators[0])}
            if sides == {"__name__", "'__main__'"}:
                return isinstance(test.ops[0], ast.NotEq)
        return None

    def _fixed(self, name: str) -> bool:
        """Whether a top-level name bound once can hold nothing else when the module runs: read in its package,
        no star import of the module's may bind it again (``from .helpers import *``) and no module of the
        package may set it as an attribute (``flops.USE_TORCH = True``, ``setattr(flops, "USE_TORCH", ...)``,
        ``vars``: the literal names' reading of what a module can replace)."""
        from grader.harness.literal_names import _replaceable_of  # (it reads with this module's walk)

        fixed = self._fixed_flags.get(name)
        if fixed is None:
            fixed = self.package is not None and not self.stars \
                and not any(name in _replaceable_of(t) for t in self.package)
            self._fixed_flags[name] = fixed
        return fixed

    def _short_circuit(self, node: ast.BoolOp, flags: bool | str = False) -> list[ast.expr]:
        """The operands an ``and``/``or`` can evaluate: none after one that always decides it."""
        decisive = isinstance(node.op, ast.Or)
        out = []
        for value in node.values:
            out.append(value)
            if self.static_truth(value, flags) is decisive:
                break
        return out

    def calls(self, function: str, target: str) -> list[int]:
        """Lines where ``function`` (or a helper or class it uses) names ``target`` ("einops.einsum"):
        calls it, or hands it on (``functools.partial(einops.einsum, ...)``, a default argument)."""
        return [line for _, line in self.names(function, lambda name: name == target)]

    def clock_reads(self, function: str) -> list[int]:
        """Lines where ``function`` (or a helper or class it uses) names a clock (``CLOCKS``): called
        there or handed on (``clock=time.perf_counter``, ``timeit.Timer(timer=time.process_time)``)."""
        return [line for _, line in self.names(function, is_clock)]

    def names(self, function: str, wanted) -> list[tuple[str, int]]:
        """(what, line) of each name read in what ``function`` runs that ``wanted`` accepts, resolved
        in its scope: a local import, alias or parameter shadows the module's name."""
        if self.rebound(function):
            return []
        found = set()
        for node, name in self.read_names(self.reachable(function)):
            if wanted(name):
                found.add((name, node.lineno))
        return sorted(found, key=lambda f: f[1])

    def function_def(self, name: str, depth: int = 0) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The ``def`` the module's name ends bound to: its own, or another's it is made an alias of
        (``merge_heads = _merge``, bound once, at import time); None where it is anything else."""
        final = self.final.get(name)
        wrapped = self._wrapped(final) if isinstance(final, ast.Call) else None
        if wrapped is not None and depth < 8 and not self.rebound(name):  # `f = jaxtyped(_f, typechecker=...)`
            return self.function_def(wrapped, depth + 1)
        if isinstance(final, ast.Name) and depth < 8 and not self.rebound(name):
            return self.function_def(final.id, depth + 1)
        if isinstance(final, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return final
        return self.functions.get(name) if final is None else None

    def _wrapped(self, call: ast.Call) -> str | None:
        """The name of the function a decorator is applied to by a call, as ``@D def f`` is ``f = D(f)``
        (``_decorating``), a type checker known by what its name resolves to."""
        return _decorating(call, lambda func: (self.resolve(func) or "") in WRAPPING_CHECKERS)

    def rebound(self, function: str) -> bool:
        """Whether the name is bound again in a way a reading does not follow (a loop, a walrus, a
        ``global`` in a function): what runs under it cannot be told, so nothing is read as it."""
        simple = 1 if isinstance(self.final.get(function), ast.expr) else 0
        return self.stores.get(function, 0) > simple

    def read_names(self, roots: list[ast.AST], sources: dict[str, str] | None = None,
                   strict: bool = False) -> Iterator[tuple[ast.AST, str]]:
        """Each name or attribute read (not bound) in ``roots`` (what a function runs, ``reachable``),
        with what it resolves to (``sources``: as ``resolve``). A branch under a flag bound once to a constant
        is left out where the flag says it never runs (``walk``'s ``flags``); ``strict`` (where a name must
        NOT be found): only under a flag that nothing can change (``_fixed``)."""
        for root in roots:
            scope = self.scope(root, sources, strict)
            # a parameter's default is read where the parameter is (``clock()`` is time.perf_counter's
            # call when ``clock=time.perf_counter``): a default never used reads as nothing
            defaults = {id(n) for d in _defaults(root) for n in walk(d)}
            local = _function_locals(self.tree)  # where each name is a function's own (a def's decorators: not)
            for inner in self.walk(root, flags=FIXED if strict else True):
                if ((isinstance(inner, (ast.Name, ast.Attribute)) and isinstance(inner.ctx, ast.Load))
                        or _literal_getattr(inner) is not None) and id(inner) not in defaults:
                    # a function's own name is read with its names; another there is the module's; outside every
                    # function (a class body, the module's top, not a def's decorators) with root's names
                    base = _base_name(inner)
                    local_here = local.get(id(base)) if base is not None else None
                    here = scope if base is None or (base.id in local_here if local_here is not None else not
                                                      isinstance(root, (ast.FunctionDef, ast.AsyncFunctionDef))) \
                        else None
                    # a local of a scope inside root (a nested def's parameter, a comprehension's variable) that
                    # root's names do not hold: a local the reading cannot name, never the module's
                    unnamed = here is not None and _inner_local(self, inner, here)
                    resolved = None if unnamed else self.resolve(inner, scope=here, sources=sources)
                    if not resolved and isinstance(inner, ast.Attribute):
                        resolved = self._class_import_read(inner)
                    yield inner, resolved or ""
                    if strict and resolved is None and base is not None and base.id in self.declared_global:
                        # (a name some function declares global: where a name must NOT be found, read as its binding
                        # at the top too; what a function stores there is read in that function, where it runs)
                        also = self.resolve(inner, scope=here, sources=sources, through_global=True)
                        if also:
                            yield inner, also
                elif id(inner) in class_scoped_imports(self.tree):
                    # an import in a class body binds an attribute of the class, read as ``self.Tally`` or
                    # ``_Tools.Tally`` where no name leads back to it: read here (a Timer's ``import time``, an
                    # einops helper's ``from einops import einsum``; torch's counter where it must NOT be found)
                    for alias in inner.names:
                        yield inner, self._library(alias.name if isinstance(inner, ast.Import)
                                                   else _from_name(inner, alias)) or ""

    def _class_import_read(self, node: ast.Attribute) -> str | None:
        """``self.time.perf_counter`` (or ``_Timer.time...``) where a class body of the module imports ``time``: the
        import's dotted name with the attributes after it (any object's attribute of that name is read so)."""
        chain = []
        while isinstance(node, ast.Attribute):
            chain.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or len(chain) < 2:
            return None
        imported = _class_import_names(self.tree).get(chain[-1])
        return ".".join([self._library(imported) or imported, *reversed(chain[:-1])]) if imported else None

    def annotations(self, function: str, sources: dict[str, str] | None = None) -> dict[str, Annotation | Plain] | None:
        """Each parameter's annotation and ``return``'s, as written; None if there is no such function.
        ``sources`` (module name -> text, the implementation's): an alias may come from another of its
        modules (``from ._types import Queries``, see ``annotation``), and names from its star imports."""
        node = self.function_def(function)
        if node is None:  # `from ._impl import attention_scores`: the def of the module it comes from
            other = self._def_elsewhere(function, sources) if sources is not None else None
            return other[0].annotations(other[1], sources) if other is not None else None
        args = node.args
        out: dict[str, Annotation | Plain] = {}
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
            out[arg.arg] = self.annotation(arg.annotation, sources=sources)
        out["return"] = self.annotation(node.returns, sources=sources)
        return out

    def annotation(self, node: ast.expr | None, depth: int = 0, sources: dict[str, str] | None = None) -> Annotation | Plain:
        """The annotation ``node`` stands for: written in place, through an alias of the module
        (``Queries = Float[...]``), or through an alias of another of the implementation's modules
        (``sources``) that the module imports (``from ._types import Queries``, ``_types.Queries``) or
        star-imports, where both names are bound once, at import time, by statements that always run."""
        if node is None:
            return Plain("")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and depth < 4:  # a string annotation
            try:
                return self.annotation(_parse_expression(node.value), depth + 1, sources)
            except SyntaxError:
                return Plain(node.value)
        if isinstance(node, ast.Name) and node.id in self.aliases and depth < 8:
            return self.annotation(self.aliases[node.id], depth + 1, sources)
        if isinstance(node, (ast.Name, ast.Attribute)) and sources is not None and depth < 8:
            elsewhere = self._alias_elsewhere(node, sources, depth)
            if elsewhere is not None:
                return elsewhere
        if isinstance(node, ast.Subscript):
            head = self.resolve(node.value, sources=sources) or ""
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if head in ANNOTATED and len(items) >= 2 and depth < 8:  # `Annotated[Float[...], "note"]`: the type
                return self.annotation(items[0], depth + 1, sources)
            if head.startswith("jaxtyping.") and len(items) == 2:
                array = self.resolve(items[0], sources=sources) or ast.unparse(items[0])
                shape = items[1]
                if isinstance(shape, ast.Name) and isinstance(self.aliases.get(shape.id), ast.Constant) \
                        and _bound_counts(self.tree)[shape.id] == 1:
                    shape = self.aliases[shape.id]  # `TOKENS = "batch seq model"`, bound once
                dims = shape.value if isinstance(shape, ast.Constant) and isinstance(shape.value, str) else None
                if dims is not None:
                    return Annotation(head.removeprefix("jaxtyping."), array, dims)
        return Plain(ast.unparse(node))

    def _def_elsewhere(self, function: str, sources: dict[str, str], depth: int = 0) -> tuple[Module, str] | None:
        """The module of the implementation's own whose ``def`` the name ``function`` is, taken from it by an
        import (``from ._impl import f``, ``from ._impl import *``, ``f = _impl.f``; through several modules) bound
        once, by a statement that always runs, and that name there; None where the name is no such import."""
        count, final = self.bindings.get(function, 0), self.final.get(function)
        if depth > 8 or count > 1 or (count == 1 and not isinstance(final, (ast.ImportFrom, ast.Attribute))):
            return None  # (`attention_scores = _impl.attention_scores` is the other module's too)
        if count == 0 and self.starred(function, sources) is None:
            return None
        dotted = self.resolve(final if isinstance(final, ast.Attribute) else ast.Name(id=function, ctx=ast.Load()),
                              sources=sources) or ""
        for taken in self._taken_from(dotted, sources):
            if taken is None:
                return None
            other, name = taken
            if other.function_def(name) is not None:
                return other, name
            return other._def_elsewhere(name, sources, depth + 1)
        return None

    def _taken_from(self, dotted: str, sources: dict[str, str]) -> Iterator[tuple[Module, str] | None]:
        """Each of the implementation's own modules a dotted name of this module's reaches (``_own``), parsed, with
        the name it takes there; None, and no more, where what it is cannot be read (this module itself, a module
        and no name in it, a module that does not parse, a module outside the package)."""
        for module, name in _own(dotted, sources, first_only=True) if not dotted.startswith("..") else ():
            if module == self.name or not name:
                yield None
                return
            try:
                yield Module.parse(sources[module], module), name
            except SyntaxError:
                yield None
                return

    def _alias_elsewhere(self, node: ast.Name | ast.Attribute, sources: dict[str, str], depth: int) -> Annotation | None:
        """The annotation a name from another of the implementation's modules stands for (see
        ``annotation``); None if it is no such name, or what it is cannot be told."""
        base = node
        while isinstance(base, ast.Attribute):
            base = base.value
        if not isinstance(base, ast.Name) or base.id in self.aliases or depth > 8:
            return None
        count = self.bindings.get(base.id, 0)
        if count > 1 or (count == 1 and not isinstance(self.final.get(base.id), (ast.Import, ast.ImportFrom))):
            return None  # bound twice, only in a branch, or by something else than an import
        if count == 0 and self.starred(base.id, sources) is None:
            return None
        dotted = self.resolve(node, sources=sources) or ""
        for taken in self._taken_from(dotted, sources):
            if taken is None:
                return None
            other, name = taken
            count, bound = other.bindings.get(name, 0), other.final.get(name)
            if count == 1 and isinstance(bound, ast.expr):  # `Queries = Float[torch.Tensor, "..."]`
                found = other.annotation(bound, depth + 1, sources)
                return found if isinstance(found, Annotation) else None
            if count == 0 or (count == 1 and isinstance(bound, (ast.Import, ast.ImportFrom))):
                return other._alias_elsewhere(ast.Name(id=name, ctx=ast.Load()), sources, depth + 1)
        return None


# What measuring takes: a clock read, however it is spelled (Part 5's time_matmul).
# wall clocks: a product's time is the wall time it takes (time.process_time and time.thread_time count
# this process's or thread's CPU time, which a multithreaded matmul multiplies and a wait leaves out)
CLOCKS = frozenset(["time.perf_counter", "time.perf_counter_ns", "time.time", "time.time_ns", "time.monotonic",
                    "time.monotonic_ns", "time.clock_gettime", "time.clock_gettime_ns",
                    "datetime.datetime.now", "torch.cuda.Event", "torch.Event"])
CLOCK_MODULES = ("timeit.", "torch.utils.benchmark.", "triton.testing.", "torch.profiler.")
# what ``from M import *`` is read to bring in, for a library not in STAR_LIBRARIES: the names the audits
# look for
STARRED = CLOCKS | {"einops.einsum", "einops.rearrange", "einops.reduce", "einops.repeat", "einops.pack",
                    "einops.unpack", "timeit.timeit", "timeit.repeat", "timeit.Timer", "timeit.default_timer"}
# libraries whose star import is read as it is: what ``from M import *`` binds with the version installed
# here (jaxtyping has no ``__all__``: its public names, ``Float`` and the other dtypes among them)
STAR_LIBRARIES = ("time", "math", "einops", "jaxtyping", "typing", "typing_extensions", "numpy", "functools",
                  "itertools", "operator", "collections", "dataclasses", "statistics", "fractions", "os.path",
                  "torch", "torch.nn", "torch.nn.functional", "torch.autograd", "torch.func",
                  "torch.utils.flop_counter", "torch.profiler")


def is_main_block(node: ast.stmt) -> bool:
    """A top-level ``if __name__ == "__main__":`` with no ``else``: a self-check for ``python file.py``,
    never run by the grader, which imports the module (staging takes it out, ``strip_main_blocks``)."""
    if not (isinstance(node, ast.If) and not node.orelse and isinstance(node.test, ast.Compare)):
        return False
    test = node.test
    return len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq) \
        and {ast.unparse(test.left), ast.unparse(test.comparators[0])} == {"__name__", "'__main__'"}


def strip_main_blocks(text: str) -> str:
    """``text`` with each top-level ``if __name__ == "__main__":`` block (``is_main_block``) blanked, line
    for line (each other line, and so every line number, stays as it was). A module that sets its own
    ``__name__`` to ``"__main__"`` at import would run its block unseen by the readings, which read it as
    dead: staged, there is no block to run. Text that does not parse is returned as it is."""
    try:
        tree = _readable(text, "exec")
    except SyntaxError:
        return text
    blocks = [(node.lineno, node.end_lineno) for node in tree.body if is_main_block(node)]
    if not blocks:
        return text
    pieces = re.split(r"(\r\n|\r|\n)", text)  # line, end, line, end, ...: the line ends Python's tokenizer knows
    for first, last in blocks:
        for line in range(first, last + 1):
            pieces[2 * (line - 1)] = ""
    return "".join(pieces)


def raised_by_a_raise(sources: dict[str, str], where: str) -> bool:
    """Whether ``where`` (a raised outcome's innermost frame of the submission's files, ``path:line in
    name``) is a ``raise`` statement of that module: the submission's own error, not one torch raised
    inside a call made on that line (``x.pin_memory()`` on a machine with no GPU)."""
    match = re.fullmatch(r"(.+):(\d+) in .*", where, flags=re.S)
    text = sources.get(match.group(1).rsplit("/", 1)[-1].removesuffix(".py")) if match else None
    if text is None:
        return False
    try:
        tree = _readable(text, "exec")
    except SyntaxError:
        return False
    line = int(match.group(2))
    return any(isinstance(node, ast.Raise) and node.lineno <= line <= (node.end_lineno or node.lineno)
               for node in ast.walk(tree))


def is_clock(name: str) -> bool:
    return name in CLOCKS or name.startswith(CLOCK_MODULES)


def package_names(sources: dict[str, str], module: str, function: str, wanted,
                  unreadable: list[str] | None = None) -> list[str]:
    """"file:line" of each name ``wanted`` accepts, read in what ``module.function`` runs, following
    the implementation's own modules it takes helpers from (``from .timing import Stopwatch``, or a
    ``from .timing import *`` that brings them, see ``Module.starred``), and a ``from .impl import *``
    that brings the function itself. ``sources``: module name -> text. A module on the way that cannot
    be read is skipped, and named in ``unreadable``: where a name must NOT be found, that is no proof."""
    found: list[str] = []
    seen: set[tuple[str, str]] = set()
    todo = [(module, function)]
    if unreadable is not None:  # (where a name must NOT be found: what the modules hand on as they are defined)
        todo += [(other, HANDED_ON) for other in sorted(imported_with(sources, module))]
    while todo:
        name, fn = todo.pop()
        if (name, fn) in seen or name not in sources:
            continue
        seen.add((name, fn))
        try:
            mod = _in_package(sources, name)
        except SyntaxError:
            if unreadable is not None:
                unreadable.append(name)
            continue
        if mod.rebound(fn):  # what runs under the name is not read: where a name must NOT be found, no proof
            if unreadable is not None:
                unreadable.append(name)
            continue
        roots = mod.import_time() + mod.closure([*mod.functions.values(), *mod.classes.values()]) \
            if fn == EVERYTHING else mod.closure(mod.handed_on()) if fn == HANDED_ON else mod.reachable(fn)
        if fn == HANDED_ON and not roots:
            continue
        if unreadable is not None:  # (where a name must NOT be found: a module held under another name, all of it)
            todo += _held_modules(mod, fn, sources)
            todo += [(held, EVERYTHING) for root in roots for held in _modules_as_values(mod, root, sources)]
        if name == PACKAGE and fn in sources and fn != PACKAGE and _package_binding_unread(mod, fn, sources) \
                and unreadable is not None:
            unreadable.append(name)
        if not roots:
            todo += [used for star in mod.stars for used in _own(f"{star}.{fn}", sources, first_only=True)]
            if _star_unknown(mod, fn, sources) and unreadable is not None:
                unreadable.append(name)
        # a helper only a `from ._bench import *` binds reads as `._bench.helper`: followed below
        for node, resolved in mod.read_names(roots, sources, strict=unreadable is not None):
            attribute = node.attr if isinstance(node, ast.Attribute) else _literal_getattr(node)
            if not resolved and attribute and not (isinstance(node, ast.Attribute) and _self(mod, node.value)):
                resolved = f"?.{attribute}"  # an attribute of what no reading can name (a call's result)
            if wanted(resolved):
                found.append(f"{name}.py:{node.lineno}")
            else:
                todo += [used for used in _own(resolved, sources, first_only=True) if used[0] != name and used[1]]
        for node in roots:  # imported over its own def
            if isinstance(node, ast.ImportFrom):
                todo += [used for used in _sibling_uses(mod, node, sources) if used[1]]
    return sorted(set(found))


def _star_unknown(mod: Module, name: str, sources: dict[str, str]) -> bool:
    """Whether ``name``, which none of the module's own statements binds, may be bound by a star import of its
    that no reading can follow (a library's whose names are not read, a module of the implementation that binds
    it twice): what a sibling taking it (``from . import grad``) runs is then not read."""
    return name not in mod.bindings and mod._star_candidates(name, sources, 0, {mod.name}) == ""


def import_time_names(sources: dict[str, str], wanted, module: str | None = None) -> list[str]:
    """"file:line" of each name ``wanted`` accepts that code of the implementation's modules runs when they are
    imported (``Module.import_time``: a class a metaclass builds included): an import statement names
    nothing here (a self-check's ``from torch.utils.flop_counter import FlopCounterMode`` is no use of it).
    ``module``: only the modules importing it (with the package's ``__init__``) may import (``imported_with``);
    a scratch script beside it that nothing imports never runs when it is graded."""
    found = []
    for name, text in sources.items():
        if module is not None and name not in imported_with(sources, module):
            continue
        try:
            mod = _in_package(sources, name)
        except SyntaxError:
            continue  # unreadable: the readings that need it say so
        found += [f"{name}.py:{node.lineno}" for node, resolved in mod.read_names(mod.import_time(), sources,
                                                                                  strict=True) if wanted(resolved)]
    return sorted(set(found))


def names_read_anywhere(sources: dict[str, str], wanted, spelled: frozenset[str]) -> list[tuple[str, str]]:
    """("file:line", dotted name) of each name ``wanted`` accepts that the implementation's modules read
    anywhere (at import, in any function or class, called or not), resolved as the other readings resolve
    them; only names and attributes spelled as one of ``spelled`` are resolved (``torch.get_num_threads``,
    ``get_num_threads`` as imported: what an alias of another spelling names is found at its import). A
    module that does not parse is skipped."""
    found = set()
    for name in sources:
        try:
            mod = _in_package(sources, name)
        except SyntaxError:
            continue
        scope = mod.scope(mod.tree, sources)
        for node in ast.walk(mod.tree):
            spelling = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
            if spelling in spelled and isinstance(node.ctx, ast.Load):
                resolved = mod.resolve(node, scope=scope, sources=sources) or ""
                if wanted(resolved):
                    found.add((f"{name}.py:{node.lineno}", resolved))
    return sorted(found)


def imported_with(sources: dict[str, str], module: str) -> set[str]:
    """The implementation's modules that importing ``module`` may run: it, the package's ``__init__``, and
    every own module an import statement of theirs names, anywhere in them (a function's own import, an
    ``if``'s), or a name of theirs reaches (``assignment.x``), transitively. A module that does not parse
    imports what no reading can tell: then every module."""
    found, todo = set(), [module, PACKAGE]
    while todo:
        name = todo.pop()
        if name in found or name not in sources:
            continue
        found.add(name)
        try:
            tree = _readable(sources[name], "exec")
        except SyntaxError:
            return set(sources)
        for node in walk(tree):
            if isinstance(node, ast.Import):
                dotted = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                dotted = [_from_name(node, alias) for alias in node.names] + [("." * node.level) + (node.module or "")]
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                dotted = [ast.unparse(node)]
            else:
                continue
            todo += [sibling for full in dotted for sibling, _ in _own(full, sources, first_only=False)]
    return found


@functools.lru_cache(maxsize=64)
def _parse(text: str, name: str) -> Module:
    return Module._build(_readable(text, "exec"), name)


def _parse_expression(text: str) -> ast.expr:
    return _readable(text, "eval").body


def _readable(text: str, mode: str) -> ast.AST:
    """``ast.parse``, within what the readings can walk: anything else raises ``SyntaxError``."""
    try:
        tree = ast.parse(text, mode=mode)
    except (RecursionError, MemoryError, ValueError) as exc:  # ValueError: a null byte
        raise SyntaxError(f"it cannot be read ({type(exc).__name__})") from None
    if nesting_depth(tree) > MAX_DEPTH:  # the readings recurse: a tree this deep would stop them, not the module
        raise SyntaxError(f"it nests more than {MAX_DEPTH} levels deep")
    if mode == "exec":
        _decorations_assigned(tree)
    return tree


def _decorations_assigned(tree: ast.Module) -> None:
    """``f = D(f)`` at the top level, after ``def f`` and with nothing else binding ``f`` between, is ``@D``
    on that def (the outermost): so made here, so that every reading reads the def it runs, as it does a
    decorated one. ``D(f)``, ``D(...)(f)`` (``torch.no_grad()(f)``) and a type checker's own form with its
    options (``jaxtyped(f, typechecker=typechecked)``) are decorations; any other call is a binding as before
    (``partial(f, scale=2)`` changes what the function takes)."""
    last_def: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    body = []
    for statement in tree.body:
        target = statement.targets[0] if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
            else None
        if isinstance(target, ast.Name) and target.id in last_def:
            decorator = _as_decorator(statement.value, target.id)
            if decorator is not None:
                last_def[target.id].decorator_list.insert(0, ast.copy_location(decorator, statement))
                continue
        for inner in ast.walk(statement):  # whatever else binds a name ends what follows its def
            if isinstance(inner, ast.Name) and not isinstance(inner.ctx, ast.Load):
                last_def.pop(inner.id, None)
            elif isinstance(inner, ast.alias):
                last_def.pop(inner.asname or inner.name.split(".")[0], None)
            elif isinstance(inner, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and inner is not statement:
                last_def.pop(inner.name, None)
        if isinstance(statement, ast.ClassDef):
            last_def.pop(statement.name, None)
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            last_def[statement.name] = statement
        body.append(statement)
    tree.body = body


def _decorating(call: ast.Call, is_checker) -> str | None:
    """The name of the function ``call`` applies a decorator to, as ``@D def f`` is ``f = D(f)``: ``D(g)``,
    ``D(...)(g)``, and a type checker's own form with its options (``jaxtyped(g, typechecker=typechecked)``,
    as the stub shows; ``is_checker`` tells its callee); None for any other call (``partial(g, scale=2)``
    changes what the function takes)."""
    if len(call.args) != 1 or not isinstance(call.args[0], ast.Name):
        return None
    if not call.keywords or is_checker(call.func) and all(k.arg for k in call.keywords):
        return call.args[0].id
    return None


def _as_decorator(value: ast.expr, name: str) -> ast.expr | None:
    """The decorator ``value`` applies to ``name`` as ``@decorator`` would, or None (``_decorating``; parsed,
    not yet read, a type checker is known by its name alone)."""
    def named(func: ast.expr) -> bool:
        return (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) in CHECKER_NAMES

    if not isinstance(value, ast.Call) or _decorating(value, named) != name:
        return None
    return ast.Call(func=value.func, args=[], keywords=value.keywords) if value.keywords else value.func


MAX_DEPTH = 200  # expressions and blocks nested deeper than anyone writes


def walk(node: ast.AST) -> Iterable[ast.AST]:
    """``ast.walk``'s nodes, in its order. A whole module's are listed once and kept on its tree: the
    readings walk each module a few dozen times, and a tree is never changed once parsed here."""
    if not isinstance(node, ast.Module):
        return ast.walk(node)
    nodes = node.__dict__.get("_walked")
    if nodes is None:
        nodes = node._walked = tuple(ast.walk(node))
    return nodes


def nesting_depth(tree: ast.AST) -> int:
    """How deep the tree's nodes nest, counted without recursion (a reading that recursed would fail first)."""
    deepest, todo = 0, [(tree, 1)]
    while todo:
        node, depth = todo.pop()
        deepest = max(deepest, depth)
        todo += [(child, depth + 1) for child in ast.iter_child_nodes(node)]
    return deepest


def _import_binding(alias: ast.alias) -> tuple[str, str]:
    """The name an ``import`` binds and the dotted name it stands for: ``import a.b`` binds ``a`` (the package
    itself), ``import a.b as n`` binds ``n`` to ``a.b``."""
    if alias.asname:
        return alias.asname, alias.name
    top = alias.name.split(".")[0]
    return top, top


def _from_name(node: ast.ImportFrom, alias: ast.alias) -> str:
    """The dotted name ``from M import name`` takes (``..pkg.name``, ``.name`` for ``from . import name``)."""
    return "." * node.level + (node.module or "") + ("." if node.module else "") + alias.name


MAX_STARS = 8  # distinct modules a module star-imports, beyond which what a name is cannot be told


def _star_brings(star: str, name: str, sources: dict[str, str] | None, depth: int,
                 opened: set[str]) -> str | None:
    """What ``name`` stands for if ``from star import *`` binds it: None if it does not, "" if it may
    and what it is cannot be told (see ``Module.starred``). Each of the implementation's modules is read
    once per lookup (``opened``): reached again through another star import it binds the same objects,
    and eight modules star-importing each other five deep were 32,768 readings for each name."""
    own = _star_module(star, sources or {})
    if own is None:
        if star.startswith(".") or star.split(".")[0] == "assignment":
            return ""  # a module of the package the reading does not have, or one outside it
        exports = _library_exports(star)
        if exports is not None:
            return f"{star}.{name}" if name in exports else None
        return f"{star}.{name}" if f"{star}.{name}" in STARRED else ""
    if sources is None or depth > 4:
        return ""
    if own in opened:
        return None
    opened.add(own)
    try:
        other = Module.parse(sources[own], own)
    except SyntaxError:
        return ""  # it does not import: nothing it binds ever runs
    if "__all__" in other.bindings:
        listed = other.final.get("__all__")
        if other.bindings["__all__"] != 1 or not isinstance(listed, (ast.List, ast.Tuple)) or not all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in listed.elts):
            return ""
        if name not in {e.value for e in listed.elts}:
            return None
    elif name.startswith("_"):
        return None
    if name in other.bindings:
        bound = other.final.get(name)
        if other.bindings[name] != 1 or bound is None:
            return ""  # bound twice, or only in a branch: which binding holds cannot be told
        if isinstance(bound, (ast.Import, ast.ImportFrom)):
            return other.imports[name]
        return f".{own}.{name}"  # its own definition: read there
    return other._star_candidates(name, sources, depth + 1, opened)


def _star_module(star: str, sources: dict[str, str]) -> str | None:
    """The implementation's module a star import reads from (``._bench``, ``assignment._bench``, or a
    flat ``_bench``, as ``_own`` reads them), if the reading has it."""
    level = len(star) - len(star.lstrip("."))
    parts = star.lstrip(".").split(".")
    if level == 0 and parts[0] == "assignment":
        parts = parts[1:]
    elif level > 1:
        return None
    return parts[0] if len(parts) == 1 and parts[0] in sources and parts[0] != PACKAGE else None


@functools.lru_cache(maxsize=None)
def _library_exports(module: str) -> frozenset[str] | None:
    """What ``from module import *`` binds, for a library in STAR_LIBRARIES or a public module of torch's or
    numpy's (the star imports the reaching-in check lets through), as installed here."""
    if module not in STAR_LIBRARIES and not (module.startswith(("torch.", "numpy."))
                                             and not any(part.startswith("_") for part in module.split("."))):
        return None
    try:
        library = importlib.import_module(module)
    except ImportError:
        return None
    names = getattr(library, "__all__", None)
    return frozenset(names if names is not None else [n for n in vars(library) if not n.startswith("_")])


def _module_bindings(tree: ast.Module, declared_global: set[str]) -> dict[str, int]:
    """How often each name is bound by the module's top-level code (see ``Module.bindings``): in any
    statement outside a function's or a class's body, whether or not it runs; a def or class binds its
    name. A ``global`` in a function counts twice (it binds the name where a reading cannot follow)."""
    counts: dict[str, int] = {}

    def bind(name: str, times: int = 1) -> None:
        counts[name] = counts.get(name, 0) + times

    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        if not isinstance(node, (ast.Global, ast.Nonlocal)):  # at top level they bind nothing
            for name in _binds(node):
                if name != "*":
                    bind(name)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue  # a body of its own (a def or class binds only its name here)
        todo.extend(ast.iter_child_nodes(node))
    for name in declared_global:
        bind(name, 2)
    return counts


def _binding_statements(tree: ast.Module, name: str) -> list[ast.AST]:
    """The statements of a module's top-level code (outside any function's or class's body, under an ``if``, a
    ``try`` or a ``with`` too; an ``except`` handler or a ``match`` case itself) that bind ``name``."""
    index = tree.__dict__.get("_binding_index")
    if index is None:
        index = tree._binding_index = _index_bindings(tree)
    return list(index.get(name, ()))


def _index_bindings(tree: ast.Module) -> dict[str, list[ast.AST]]:
    """Each name the module's top-level code binds -> the statements (handlers, cases) binding it: one walk."""
    holders = (ast.stmt, ast.excepthandler, ast.match_case)
    index: dict[str, list[ast.AST]] = {}
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        names = list(_binds(node))
        parts = [c for c in ast.iter_child_nodes(node) if not isinstance(c, holders)]
        while parts:  # the node's own expressions, targets and patterns (not a lambda's parameters)
            inner = parts.pop()
            names += _binds(inner) if not isinstance(inner, ast.arg) else []
            if not isinstance(inner, ast.Lambda):
                parts.extend(ast.iter_child_nodes(inner))
        for bound in dict.fromkeys(names):
            index.setdefault(bound, []).append(node)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            todo.extend(c for c in ast.iter_child_nodes(node) if isinstance(c, holders))
    return index


@functools.lru_cache(maxsize=64)
def _tree_of(text: str) -> ast.Module | None:
    """A module's text parsed (None where it does not parse), once a text."""
    try:
        return _readable(text, "exec")
    except SyntaxError:
        return None


def _defaults(node: ast.AST) -> list[ast.expr]:
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return []
    return [*node.args.defaults, *filter(None, node.args.kw_defaults)]


def _locals(node: ast.AST) -> set[str]:
    """The names local to a function (its parameters and what it binds, but what it declares global):
    Python reads them there, never the module's of the same name. A nested function, class, lambda
    or comprehension has a scope of its own: only the name a nested def or class binds is local."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return set()
    args = node.args
    names = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, *filter(None, [args.vararg, args.kwarg])]}
    declared: set[str] = set()
    todo = list(node.body) if isinstance(node.body, list) else [node.body]
    while todo:
        inner = todo.pop()
        if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(inner.name)
            todo += [*inner.decorator_list, *(_defaults(inner) if not isinstance(inner, ast.ClassDef) else inner.bases)]
            continue
        if isinstance(inner, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            # a walrus in a comprehension binds its name in the function (its variables are the comprehension's)
            names.update(n.target.id for n in _comprehension_walk(inner) if isinstance(n, ast.NamedExpr))
            continue
        if isinstance(inner, ast.Lambda):
            continue
        if isinstance(inner, ast.Name) and not isinstance(inner.ctx, ast.Load):
            names.add(inner.id)
        elif isinstance(inner, ast.ExceptHandler) and inner.name:  # `except E as e`
            names.add(inner.name)
        elif isinstance(inner, (ast.MatchAs, ast.MatchStar)) and inner.name:  # `case x`, `case [*xs]`
            names.add(inner.name)
        elif isinstance(inner, ast.MatchMapping) and inner.rest:  # `case {**rest}`
            names.add(inner.rest)
        elif isinstance(inner, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in inner.names if a.name != "*")
        elif isinstance(inner, (ast.Global, ast.Nonlocal)):
            declared.update(inner.names)
        todo.extend(ast.iter_child_nodes(inner))
    return names - declared


def class_scoped_imports(tree: ast.Module) -> frozenset[int]:
    """The ids of the import statements that run in a class body (under its if, try, with or loop too): each
    binds an attribute of the class, which code anywhere may read (``self.Tally``, ``_Tools.J``), not a name the
    module reads back."""
    found = tree.__dict__.get("_class_imports")
    if found is None:
        holders = (ast.stmt, ast.excepthandler, ast.match_case)
        ids: set[int] = set()
        for cls in walk(tree):
            todo = list(cls.body) if isinstance(cls, ast.ClassDef) else []
            while todo:
                statement = todo.pop()
                if isinstance(statement, (ast.Import, ast.ImportFrom)):
                    ids.add(id(statement))
                elif not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    todo += [c for c in ast.iter_child_nodes(statement) if isinstance(c, holders)]
        found = tree._class_imports = frozenset(ids)
    return found


def _class_import_names(tree: ast.Module) -> dict[str, str]:
    """The names the module's class bodies import (``class _Timer: import time``) -> what each imports, dotted."""
    found = tree.__dict__.get("_class_import_names")
    if found is None:
        found = {}
        for node in walk(tree):
            if id(node) in class_scoped_imports(tree):
                for alias in node.names:
                    if alias.name != "*":
                        name, dotted = _import_binding(alias) if isinstance(node, ast.Import) \
                            else (alias.asname or alias.name, _from_name(node, alias))
                        found[name] = dotted
        tree._class_import_names = found
    return found


def _base_name(node: ast.AST) -> ast.Name | None:
    """The name an attribute chain starts from (``fn`` of ``fn.x.y``), or None (a call's result, a subscript's)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node if isinstance(node, ast.Name) else None


def _call_time(root: ast.AST) -> frozenset[int]:
    """The ids of ``root``'s nodes that run only when a function is called: those in a def's or lambda's body (not
    its decorators, defaults or annotations, which run where the def stands), ``root``'s own body where it is one."""
    found: set[int] = set()
    todo: list[tuple[ast.AST, bool]] = [(root, False)]
    while todo:
        node, later = todo.pop()
        if later:
            found.add(id(node))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            standing = [node.args, *getattr(node, "decorator_list", ()), getattr(node, "returns", None)]
            todo += [(child, later if any(child is part for part in standing) else True)
                     for child in ast.iter_child_nodes(node)]
        else:
            todo += [(child, later) for child in ast.iter_child_nodes(node)]
    return frozenset(found)


def _comprehension_walk(node: ast.AST) -> Iterator[ast.AST]:
    """A comprehension's nodes, its nested comprehensions' too, but not a lambda's or a def's (their own scopes)."""
    todo = [node]
    while todo:
        inner = todo.pop()
        yield inner
        todo.extend(c for c in ast.iter_child_nodes(inner) if not isinstance(c, (ast.Lambda, ast.FunctionDef,
                                                                                 ast.AsyncFunctionDef, ast.ClassDef)))


def _enclosing_ids(node: ast.AST) -> frozenset[int]:
    """The ids of a def's (or lambda's) nodes that Python evaluates where the def stands, not in its own scope:
    its decorators, defaults and annotations (``def f(fn)`` decorated ``@fn`` reads the module's ``fn``)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        parts = _def_time_parts(node)
    elif isinstance(node, ast.Lambda):
        parts = _defaults(node)
    else:
        return frozenset()
    return frozenset(id(n) for part in parts for n in walk(part))


def _assigned(target: ast.expr, value: ast.expr) -> Iterator[tuple[str, ast.expr]]:
    """(name, what it is bound to) of an assignment's target: ``a, b = f, g`` binds a to f and b to g;
    a name in any other unpacking is bound to the whole value (what it is cannot be read)."""
    if isinstance(target, ast.Name):
        yield target.id, value
    elif isinstance(target, (ast.Tuple, ast.List)):
        paired = isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts) and \
            not any(isinstance(e, ast.Starred) for e in [*target.elts, *value.elts])
        for i, element in enumerate(target.elts):
            yield from _assigned(element.value if isinstance(element, ast.Starred) else element,
                                 value.elts[i] if paired else value)


def _def_time_parts(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.expr]:
    """What a def statement evaluates where it stands: its decorators, defaults and annotations."""
    return [*node.decorator_list, *node.args.defaults, *filter(None, node.args.kw_defaults),
            *_annotations_when_defined(node)]


def _annotations_when_defined(node: ast.stmt) -> list[ast.expr]:
    """The annotations among ``_runs_when_defined(node)``: a function's, and a class body's functions'."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        args = node.args
        return [a.annotation for a in [*args.posonlyargs, *args.args, *args.kwonlyargs,
                                       *filter(None, [args.vararg, args.kwarg])] if a.annotation] + \
            list(filter(None, [node.returns]))
    if isinstance(node, ast.ClassDef):
        return [part for child in node.body for part in _annotations_when_defined(child)]
    return []


def _names_only(node: ast.expr) -> bool:
    """Whether evaluating ``node`` only looks names up (``Ledger``, ``torch.dtype``, ``list[int] | None``,
    a string): it calls nothing but the dunders of a subscript or ``|``."""
    if isinstance(node, (ast.Name, ast.Constant)):
        return True
    if isinstance(node, ast.Attribute):
        return _names_only(node.value)
    if isinstance(node, ast.Subscript):
        return _names_only(node.value) and _names_only(node.slice)
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(_names_only(e) for e in node.elts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _names_only(node.left) and _names_only(node.right)
    return False


def _runs_when_defined(node: ast.stmt, mod: Module) -> list[ast.AST]:
    """The parts of a top-level statement that run when the module runs it."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return _def_time_parts(node)
    if isinstance(node, ast.ClassDef):
        if node.keywords or not all(_inert_base(base, mod) for base in node.bases):
            # a metaclass, or a base's, may call any method as the class is made (an Enum's
            # _generate_next_value_ and each member's __init__, a base's __init_subclass__): all of it runs
            return [node]
        # a base of the module's own that is inert is only looked up: naming it runs none of its methods
        # (its own class statement is read where it stands)
        body = [part for child in node.body for part in _runs_when_defined(child, mod)]
        # a def of the class body named by what the body runs (``_ready = _install()``, a decorator of its own)
        # runs as the class is made: the body's own names are its defs, which no module-level reading follows
        defined = {child.name: child for child in node.body
                   if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        called = {id(defined[n.id]): defined[n.id] for part in body for n in ast.walk(part)
                  if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in defined}
        return [*node.decorator_list, *[base for base in node.bases if _own_class(base, mod) is None], *body,
                *called.values(),
                *[child for child in node.body if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and child.name in CLASS_TIME_METHODS and id(child) not in called]]
    return [node]


# decorators that hand back a wrapper of the function (or the function) under its own name and keep it nowhere
# else: a reading of the name reads the function
WRAPPING_DECORATORS = frozenset([
    "staticmethod", "classmethod", "property", "functools.wraps", "functools.lru_cache", "functools.cache",
    "functools.cached_property", "functools.total_ordering", "abc.abstractmethod", "typing.overload",
    "typing.final", "typing.no_type_check", "typing_extensions.overload", "typing_extensions.final",
    "typing_extensions.override", "typing.override", "dataclasses.dataclass", "contextlib.contextmanager",
    "torch.no_grad", "torch.enable_grad", "torch.inference_mode", "torch.set_grad_enabled",
    "jaxtyping.jaxtyped", "typeguard.typechecked", "beartype.beartype", "typing_extensions.deprecated",
    "warnings.deprecated"])


def _wraps_only(decorator: ast.expr, mod: Module, in_class: ast.ClassDef | None) -> bool:
    """Whether ``decorator`` is one of ``WRAPPING_DECORATORS`` (called with options written out, or not), or a
    property's ``.setter`` (``.getter``, ``.deleter``) of a def of the same class body that ``@property``
    decorates. Called with anything else (``@functools.lru_cache(keep)``: lru_cache(keep)(f) is keep(f)), it hands
    the function to what it was given; ``functools.wraps(g)`` only copies g's name onto it, and jaxtyping's
    ``typechecker=`` may be one of the checkers."""
    callee = decorator.func if isinstance(decorator, ast.Call) else decorator
    if isinstance(decorator, ast.Call) and mod.resolve(callee) != "functools.wraps" and not all(
            mod.resolve(option) in WRAPPING_DECORATORS  # (jaxtyped's typechecker=)
            or not any(isinstance(n, (ast.Name, ast.Attribute, ast.Call, ast.Lambda, ast.NamedExpr, ast.Starred))
                       for n in walk(option))  # written out: `maxsize=2 ** 4`, `"use f instead"`
            for option in [*decorator.args, *(k.value for k in decorator.keywords)]):
        return False
    if in_class is not None and isinstance(callee, ast.Attribute) and callee.attr in ("setter", "getter", "deleter") \
            and isinstance(callee.value, ast.Name):
        return any(isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) and d.name == callee.value.id
                   and any(isinstance(p, ast.Name) and mod.resolve(p) == "property" for p in d.decorator_list)
                   for d in in_class.body)
    return mod.resolve(callee) in WRAPPING_DECORATORS


# methods a base calls as a subclass is made (TorchDispatchMode's __init_subclass__ asks _should_skip_dynamo)
CLASS_TIME_METHODS = frozenset(["_should_skip_dynamo"])


# bases whose making of a subclass calls none of its methods: plain type, no __init_subclass__ of theirs
# that runs the subclass's code (TorchDispatchMode's only checks how __torch_dispatch__ is declared)
INERT_BASES = frozenset(["object", "abc.ABC", "typing.Protocol", "typing.NamedTuple", "typing.Generic",
                         "Exception", "ValueError", "TypeError", "RuntimeError", "torch.nn.Module",
                         "torch.nn.modules.module.Module", "torch.utils._python_dispatch.TorchDispatchMode",
                         # a self-check's test case: its __init_subclass__ sets two attributes, runs no method
                         "unittest.TestCase", "unittest.case.TestCase"])


# what a base of the module's own may run as a subclass is made: where it defines one, it is no inert base
SUBCLASS_HOOKS = frozenset(["__init_subclass__", "__class_getitem__", "__mro_entries__", *CLASS_TIME_METHODS])


def _inert_base(base: ast.expr, mod: Module, depth: int = 0) -> bool:
    if isinstance(base, ast.Subscript):  # Generic[T], Protocol[T]
        return (mod.resolve(base.value) or "") in INERT_BASES
    if (mod.resolve(base) or "") in INERT_BASES:
        return True
    own = _own_class(base, mod)  # a mixin of the module's own: inert where it is plain, and its bases too
    return own is not None and depth < 8 and _plain_class_statement(own, mod) and \
        all(_inert_base(inner, mod, depth + 1) for inner in own.bases)


def _own_class(base: ast.expr, mod: Module) -> ast.ClassDef | None:
    """The module's own class statement a base names, where the name is bound to it once and for all."""
    if isinstance(base, ast.Name) and base.id not in mod.declared_global and mod.bindings.get(base.id) == 1:
        found = mod.final.get(base.id)
        return found if isinstance(found, ast.ClassDef) else None
    return None


def _plain_class_statement(cls: ast.ClassDef, mod: Module) -> bool:
    """No metaclass, no decorator but a dataclass's (which makes a plain class), and no name of
    ``SUBCLASS_HOOKS`` bound in its body."""
    decorators = [d.func if isinstance(d, ast.Call) else d for d in cls.decorator_list]
    return not cls.keywords and all(mod.resolve(d) == "dataclasses.dataclass" for d in decorators) and \
        not any(name in SUBCLASS_HOOKS for child in cls.body for name in _bound_in_class(child))


# what hands a class body's own namespace to code, which may bind any name in it unread
# (``locals()["__init_subclass__"] = ...``, ``vars().update(...)``, ``exec("...")``, a frame's ``f_locals``)
NAMESPACE_HANDLES = frozenset(["locals", "vars", "exec", "eval", "_getframe", "currentframe", "f_locals"])


def _bound_in_class(node: ast.stmt) -> list[str]:
    """The names a statement of a class body binds in the class's namespace; ``__init_subclass__`` (a hook)
    where it may bind one unread."""
    evaluated = _evaluated_in_class(node)
    if any(isinstance(n, ast.Name) and n.id in NAMESPACE_HANDLES or
           isinstance(n, ast.Attribute) and n.attr in NAMESPACE_HANDLES for part in evaluated for n in ast.walk(part)):
        return ["__init_subclass__"]
    # ``(__init_subclass__ := classmethod(f))``: an expression's walrus binds in the class body, wherever the
    # class body evaluates it (a statement of its own, a value, a default, a decorator)
    walrus = [n.target.id for part in evaluated for n in ast.walk(part)
              if isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name)]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name, *walrus]
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)] + walrus
    if isinstance(node, ast.Pass) or isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
        return []  # a docstring, ``...``
    if isinstance(node, ast.Expr) and not walrus:
        return []  # an expression that binds nothing (a call's namespace handle is read above)
    # anything else that may bind a name in the body (an import, a loop, a with, a conditional def): read as a hook
    return [*walrus, "__init_subclass__"]


def _evaluated_in_class(node: ast.stmt) -> list[ast.AST]:
    """What of a class body's statement the class body itself evaluates: a def's or a nested class's
    decorators, defaults, annotations and bases (their bodies run elsewhere, or bind in their own namespace),
    the whole of any other statement."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return _def_time_parts(node)
    if isinstance(node, ast.ClassDef):
        return [*node.decorator_list, *node.bases, *node.keywords]
    return [node]


# --------------------------------------------------------------------------- Part 7: no autograd
# What a gradient by hand may import: arithmetic, tensors, checks and the standard library's plain
# tools; nothing that differentiates (names from these that could are charged where they are used).
PLAIN_IMPORTS = ("__future__", "typing", "typing_extensions", "math", "numbers", "fractions", "statistics",
                 "dataclasses", "functools", "itertools", "operator", "collections", "collections.abc", "abc",
                 "enum", "contextlib", "warnings", "logging", "numpy", "einops", "jaxtyping", "typeguard",
                 "beartype", "torch", "torch.nn", "torch.nn.functional", "torch.linalg", "torch.testing",
                 "torch.types",
                 # the standard library's everyday modules (a self-check's `import sys`, a helper's `re`): what
                 # of them runs unseen (`sys.modules`, `os.system`) is charged by name, `RUNS_UNSEEN`
                 "sys", "os", "os.path", "re", "time", "random", "json", "copy", "pathlib", "datetime", "decimal",
                 "heapq", "bisect", "pprint", "textwrap", "doctest", "inspect",
                 # and a self-check's (its timer's text runners and mock charged by name, `RUNS_UNSEEN`)
                 "argparse", "timeit", "unittest", "types", "string", "io", "struct", "cmath",
                 # a version guard's (what of them turns a name into an object is charged by name, `RUNS_UNSEEN`)
                 "importlib.metadata", "importlib.util", "packaging.version")
# Names of autograd's entry points, wherever they appear as an attribute, a name or a keyword.
AUTOGRAD = frozenset([
    "backward", "grad", "grad_fn", "requires_grad", "requires_grad_", "retain_grad", "register_hook",
    "autograd", "func", "functorch", "jacrev", "jacfwd", "vjp", "jvp", "hessian", "jacobian",
    "functional_call", "enable_grad", "set_grad_enabled", "Parameter", "Function",
    "compile", "jit", "export", "fx", "library", "make_dual", "unpack_dual", "forward_ad",
    # library code that runs autograd for its caller: an exponential family's entropy and KL divergence
    # differentiate its log normalizer (torch.distributions: its cdf, log_prob or sample differentiate
    # nothing), a graphed callable runs backward to record it
    "entropy", "kl_divergence", "make_graphed_callables",
])
# names of autograd's modules that differentiate nothing (a grad inside them is read as one)
PLAIN_FROM_AUTOGRAD = frozenset(["torch.func.vmap"])
# torch's flags: setting one to a constant replaces no code (`torch.backends.cudnn.benchmark = True`)
FLAGS = ("torch.backends.",)
# autograd's classes, which an annotation that only names things may name (making one is autograd)
TYPES = frozenset(["Parameter"])
# the type checkers whose call with options wraps a function as their decorator would (``jaxtyped(f, typechecker=...)``)
WRAPPING_CHECKERS = frozenset(["jaxtyping.jaxtyped", "typeguard.typechecked", "beartype.beartype"])
CHECKER_NAMES = frozenset(c.rsplit(".", 1)[1] for c in WRAPPING_CHECKERS)  # ... as a module not yet read names them
# Ways to reach a name without writing it, which a reading of the source cannot follow.
ESCAPES = frozenset(["getattr", "setattr", "delattr", "eval", "exec", "compile", "__import__", "globals",
                     "locals", "vars", "dir", "open", "breakpoint", "builtins",
                     # text evaluated as code: string annotations and forward references
                     "get_type_hints", "get_annotations", "ForwardRef", "_eval_type",
                     "attrgetter", "methodcaller", "import_module",
                     # `string.Formatter().get_field("0.grad", (w,), {})` is `w.grad`
                     "get_field",
                     # typeguard evaluates a type given as a string (a forward reference) as code
                     "check_type"])
# classes whose one positional pattern matches the subject itself (`case int(n)`), reading no attribute
SELF_MATCHING = frozenset(["bool", "bytearray", "bytes", "dict", "float", "frozenset", "int", "list", "set", "str",
                           "tuple"])


def match_positions(trees: dict[str, ast.Module], module: str, node: ast.MatchClass) -> tuple[str, ...] | None:
    """The attributes ``case C(a, b)`` (in module ``module`` of the package's ``trees``) may read of its subject by
    position: those C's ``__match_args__`` names (every name C declares, where it is one of the submission's own:
    which of them are matched is not read). None where the source cannot tell them: ``__match_args__`` is data any
    class may set (text built at run time), and ``isinstance`` answers what an ABC's ``__subclasshook__`` says, so
    ``case C(v)`` may be ``v = getattr(subject, <any name>)``. Told: nothing, for one pattern of a builtin that
    matches the subject itself (``case int(n)``, ``int`` bound by no code of the submission, nor set on a module by
    any) and for a library's class (``case torch.Size([n, d])``: its own names; a store into it is refused
    elsewhere); the fields a plain class of the submission's own declares, a dataclass's or a NamedTuple's, here or
    imported from a sibling (``case Dims(n, d)``, ``case FloatFormat(8, _, _)``: bound once, by its class
    statement or a ``NamedTuple``/``namedtuple`` call of names written out, nothing set on it, no
    ``__match_args__`` anywhere), or nothing for a plain class without fields (Python refuses it)."""
    if not node.patterns:
        return ()
    tree = trees[module]
    if isinstance(node.cls, ast.Attribute):  # `torch.Size`: a library's, where its root is imported as one
        root = node.cls
        while isinstance(root, ast.Attribute):
            root = root.value
        return () if isinstance(root, ast.Name) and _imported_library(tree, root.id) else None
    if not isinstance(node.cls, ast.Name):
        return None
    name = node.cls.id
    if any(isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names) for n in walk(tree)) \
            or any(_set_from_anywhere(n, name) for each in trees.values() for n in walk(each)):
        return None
    if not any(name in _binds(n) for n in walk(tree)):
        return () if name in SELF_MATCHING and len(node.patterns) == 1 else None
    bound = _top_binding(tree, name)
    if bound is None:
        return None
    if isinstance(bound, ast.ImportFrom) and bound.level == 1 and bound.module in trees and bound.module != module:
        taken = [a.name for a in bound.names if (a.asname or a.name) == name]  # `from .dtypes import FloatFormat`
        sibling = trees[bound.module]
        if len(taken) != 1 or any(_set_from_anywhere(n, taken[0]) for each in trees.values() for n in walk(each)):
            return None
        tree, name, bound = sibling, taken[0], _top_binding(sibling, taken[0])
        if bound is None:
            return None
    elif isinstance(bound, (ast.Import, ast.ImportFrom)):  # `from torch import Size`: a library's
        return () if _imported_library(tree, name) else None
    if any(_mentions_match_args(n) for each in trees.values() for n in walk(each)) \
            or any(isinstance(n, ast.Attribute) and not isinstance(n.ctx, ast.Load) and isinstance(n.value, ast.Name)
                   and n.value.id == name for each in trees.values() for n in walk(each)):
        return None
    if isinstance(bound, ast.Assign):  # `P = namedtuple("P", "a b")`, `P = NamedTuple("P", [("a", int)])`
        call = bound.value
        if len(bound.targets) != 1 or not isinstance(call, ast.Call) or call.keywords or not (
                _imported_as(tree, call.func, "typing", "NamedTuple")
                or _imported_as(tree, call.func, "collections", "namedtuple")):
            return None
        return _fields_written(call.args)
    return _declared_fields(tree, bound)


def _declared_fields(tree: ast.Module, cls: ast.AST, depth: int = 0) -> tuple[str, ...] | None:
    """Every name a plain class of the module's own annotates, its own bases' too (a dataclass on a dataclass),
    whatever their places among the fields (a ClassVar or KW_ONLY one shifts them); None where it is no such
    class: a metaclass, a base or a decorator but a NamedTuple, a dataclass or a class of the same kind, a body
    binding anything but fields and methods."""
    if depth > 8 or not isinstance(cls, ast.ClassDef) or cls.keywords \
            or not all(_declares_only(statement) for statement in cls.body):
        return None
    makers = [_imported_as(tree, d.func if isinstance(d, ast.Call) else d, "dataclasses", "dataclass")
              for d in cls.decorator_list]
    names = [s.target.id for s in cls.body if isinstance(s, ast.AnnAssign)]
    for base in cls.bases:
        if _imported_as(tree, base, "typing", "NamedTuple") and not cls.decorator_list:
            continue
        inherited = _declared_fields(tree, _top_binding(tree, base.id), depth + 1) if isinstance(base, ast.Name) \
            else None
        if inherited is None:
            return None
        names += inherited
    return tuple(names) if all(makers) and len(makers) <= 1 else None


def _top_binding(tree: ast.Module, name: str) -> ast.stmt | None:
    """The one statement of the module's top that binds ``name`` (its class, its import, an assignment to it alone),
    where nothing else in the module binds it; None otherwise."""
    binders = [n for n in walk(tree) if name in _binds(n)]
    if len(binders) != 1:
        return None
    assigned = [s for s in tree.body if isinstance(s, ast.Assign) and binders[0] in s.targets]
    bound = assigned[0] if assigned else binders[0]  # (`P = namedtuple(...)` binds P by its target)
    return bound if bound in tree.body else None


def _fields_written(args: list[ast.expr]) -> tuple[str, ...] | None:
    """The field names of ``namedtuple("P", "a b")`` / ``namedtuple("P", ["a", "b"])`` / ``NamedTuple("P", [("a",
    int)])`` from its arguments, where each is written out; None otherwise."""
    if len(args) != 2 or not (isinstance(args[0], ast.Constant) and isinstance(args[0].value, str)):
        return None
    fields = args[1]
    if isinstance(fields, ast.Constant) and isinstance(fields.value, str):
        return tuple(fields.value.replace(",", " ").split())
    if not isinstance(fields, (ast.List, ast.Tuple)):
        return None
    names = [item.elts[0] if isinstance(item, ast.Tuple) and len(item.elts) == 2 else item for item in fields.elts]
    if not all(isinstance(n, ast.Constant) and isinstance(n.value, str) for n in names):
        return None
    return tuple(n.value for n in names)


def _imported_library(tree: ast.Module, name: str) -> bool:
    """Whether the module's top binds ``name`` once, by importing a library (not a module of the submission's own:
    no relative import, no ``assignment``)."""
    statement = _top_binding(tree, name)
    if not isinstance(statement, (ast.Import, ast.ImportFrom)):
        return False
    if isinstance(statement, ast.ImportFrom):
        return statement.level == 0 and (statement.module or "").split(".")[0] != "assignment"
    return all(a.name.split(".")[0] != "assignment" for a in statement.names
               if (a.asname or a.name.split(".")[0]) == name)


def _declares_only(statement: ast.stmt) -> bool:
    """Whether a class body's statement only declares a field (``n: int``, ``n: int = 0``, its name written
    plainly: ``(n): int`` is none), a method, a docstring or ``pass``: nothing else binds a class attribute
    (``__match_args__`` under any spelling, an import, a capture)."""
    if isinstance(statement, ast.AnnAssign):
        return statement.simple == 1 and isinstance(statement.target, ast.Name) \
            and statement.target.id != "__match_args__"
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return statement.name != "__match_args__"
    return isinstance(statement, ast.Pass) or isinstance(statement, ast.Expr) and isinstance(statement.value,
                                                                                           ast.Constant)


def _set_from_anywhere(node: ast.AST, name: str) -> bool:
    """Whether ``node`` may set a module's global ``name`` from outside its own code: an attribute stored or
    deleted by that name (``gradients.bytes = C``), ``setattr``/``delattr`` by that name or one not written
    out, a namespace's item of that name stored (``globals()["bytes"] = C``)."""
    if isinstance(node, ast.Attribute):
        return node.attr == name and not isinstance(node.ctx, ast.Load)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr"):
        given = node.args[1] if len(node.args) > 1 else None
        return not (isinstance(given, ast.Constant) and given.value != name)
    if isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load):  # a namespace's item
        space = node.value
        return isinstance(node.slice, ast.Constant) and node.slice.value == name and (
            isinstance(space, ast.Attribute) and space.attr == "__dict__" or isinstance(space, ast.Call)
            and isinstance(space.func, ast.Name) and space.func.id in ("globals", "vars", "locals"))
    return False


def _mentions_match_args(node: ast.AST) -> bool:
    return (isinstance(node, ast.Constant) and node.value == "__match_args__" or "__match_args__" in _binds(node)
            or isinstance(node, ast.Name) and node.id == "__match_args__"
            or isinstance(node, ast.Attribute) and node.attr == "__match_args__"
            or isinstance(node, ast.keyword) and node.arg == "match_args")


def _imported_as(tree: ast.Module, node: ast.expr, module: str, name: str) -> bool:
    """Whether ``node`` is ``module.name``, by a name the module's top level binds only by importing it
    (``from dataclasses import dataclass``, ``import dataclasses`` then ``dataclasses.dataclass``)."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.attr == name:
        local, of_module = node.value.id, True
    elif isinstance(node, ast.Name):
        local, of_module = node.id, False
    else:
        return False
    imported = _top_binding(tree, local)
    if of_module:
        return isinstance(imported, ast.Import) and any(a.name == module and (a.asname or a.name) == local
                                                        for a in imported.names)
    return isinstance(imported, ast.ImportFrom) and imported.module == module and imported.level == 0 and any(
        a.name == name and (a.asname or a.name) == local for a in imported.names)


# module dunders a gradient may read; any other (``__builtins__``, ``__loader__``, ...) reaches around
PLAIN_DUNDERS = frozenset(["__name__", "__file__", "__all__", "__debug__"])
# dunder attributes of plain use (``fn.__name__``, ``super().__init__``); any other (``__dict__``,
# ``__globals__``, ``__subclasses__``, ...) reaches around
PLAIN_DUNDER_ATTRIBUTES = frozenset(["__name__", "__qualname__", "__module__", "__init__", "__class__",
                                     "__post_init__", "__enter__", "__exit__", "__call__", "__repr__", "__str__",
                                     "__len__", "__iter__", "__next__", "__eq__", "__hash__", "__getitem__",
                                     # a library's version string, a dataclass's table of its own fields
                                     "__version__", "__dataclass_fields__"])
OWN = frozenset(["squared_error_grad", "linear_backward"])  # the spec's names may appear as themselves
# Ways to run what no source shows: reading data back as code (a pickle's opcodes may call ``exec``, and
# torch.load, numpy.load, torch.jit and torch.package read pickles), building a function from a code
# object, a frame's globals, another process, a name looked up from a string. Charged wherever code a
# gradient runs names them, a helper module's own imports or not.
# what runs a string as code or reads a source's text back (its comments too): code no reading sees. Timing
# and profiling tools among them, which Part 5 may use: another module's import-time code only naming one
# (`timer: timeit.Timer`) runs nothing of it, so there they are charged where called
TEXT_RUNNERS = ("timeit.Timer", "timeit.timeit", "timeit.repeat", "timeit.main", "cProfile", "profile.run",
                "profile.runctx", "profile.Profile", "trace.Trace", "bdb", "pdb", "torch.utils.benchmark",
                "inspect.getsource", "inspect.getsourcelines", "inspect.findsource", "inspect.getcomments",
                "inspect.getdoc", "linecache", "tokenize")
RUNS_UNSEEN = ("pickle", "_pickle", "cPickle", "marshal", "shelve", "copyreg", "copy_reg", "dill", "cloudpickle",
               "doctest",  # runs the examples of docstrings: code in strings
               "timeit.timeit", "timeit.repeat", "timeit.Timer", "timeit.main",  # a statement given as text
               "logging.config",  # resolves dotted names from strings (BaseConfigurator.resolve, "()" factories)
               "joblib", "codecs", "runpy", "code", "codeop", "importlib", "pkgutil", "pydoc", "gc",
               "ctypes", "subprocess", "multiprocessing", "concurrent", "asyncio", "pty", "unittest.mock",
               "sys.modules", "sys.exc_info", "sys.exception", "sys.last_traceback", "sys.last_exc", "sys.settrace",
               "sys.setprofile", "sys.addaudithook", "sys.meta_path", "sys.path_hooks", "os.system", "os.popen",
               "os.fork", "os.posix_spawn", "types.FunctionType", "types.LambdaType", "types.CodeType",
               "types.MethodType", "torch.load", "torch.serialization", "torch.jit", "torch.package", "torch.hub",
               "torch._jit_internal",  # TorchScript's resolvers: a dotted name read in a module or a function's globals
               "torch.fx.graph_module._forward_from_src", "torch.fx.graph_module._exec_with_source",
               "torch.utils.model_zoo", "torch.utils.cpp_extension", "torch.overrides", "torch.multiprocessing",
               "torch.distributed", "numpy.load", "numpy.lib.format", "numpy.ctypeslib",
               # what ``inspect`` hands back by name or by frame (its signatures are plain)
               "inspect.getmembers", "inspect.getmembers_static", "inspect.getattr_static", "inspect.getclosurevars",
               "inspect.currentframe", "inspect.stack", "inspect.trace", "inspect.getouterframes",
               "inspect.getinnerframes",
               *TEXT_RUNNERS,
               # where imports are found (a module written at run time, a library's name taken by a file) and
               # what turns a dotted name into the object (`torch._utils._import_dotted_name("torch.utils...")`)
               "sys.path", "site", "imp", "zipimport", "torch._utils", "torch.utils._import_utils",
               # a type checker's door that takes the type as a value (a string there is evaluated as code)
               "beartype.door",
               # a format string's fields looked up by the formatter, the objects handed to code of its own
               # (a Formatter's `format_field`): `"{0.utils.flop_counter.FlopCounterMode}"` is that class
               "string.Formatter", "_string")
# attributes of frames and tracebacks: a frame's globals reach every name of a module unwritten
FRAME_ATTRIBUTES = frozenset(["f_globals", "f_locals", "f_builtins", "f_back", "f_code", "tb_frame", "tb_next",
                              "gi_frame", "cr_frame", "ag_frame", "co_consts", "co_code"])


# names that share a word with autograd's or an escape's and are neither (``re.compile`` builds a pattern)
PLAIN_NAMES = frozenset(["re.compile"])


def _plain_regex(tree: ast.Module) -> bool:
    """Whether ``re`` in this module is the standard library's, bound once by ``import re``: then
    ``re.compile`` is the pattern compiler, not ``compile`` (see ``PLAIN_NAMES``)."""
    imported = any(isinstance(n, ast.Import) and any(a.name == "re" and a.asname is None for a in n.names)
                   for n in walk(tree))
    return imported and _bound_counts(tree)["re"] == 1


def tails(dotted: str) -> Iterator[str]:
    """``dotted`` and each name it ends with (``a.b.c``, ``b.c``, ``c``): a module's attribute may be another
    module (``logging.sys.modules`` is ``sys.modules``), so a name is what any tail of it names."""
    parts = dotted.split(".")
    return (".".join(parts[i:]) for i in range(len(parts)))


def reached_as(dotted: str, names: Iterable[str]) -> bool:
    """Whether a resolved name is one of ``names`` or inside one, however it is reached (``tails``)."""
    return any(tail == name or tail.startswith(name + ".") for tail in tails(dotted) for name in names)


def defined_in(dotted: str, library: str = "torch") -> str | None:
    """The module that defines what a name of ``library`` is (``torch._functorch.benchmark_utils.profile``
    is ``torch.profiler.profiler``'s class, re-exported), as the library itself says: the longest prefix
    that imports is imported, the rest read as attributes. None where it does not resolve. Only the
    library's own modules are imported, never one of a dunder name (a package's ``__main__`` runs)."""
    parts = dotted.split(".")
    if parts[0] != library or any(part.startswith("__") for part in parts):
        return None
    obj = None
    for end in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:end]))
        except Exception:  # noqa: BLE001 - not a module, or one that does not import here
            continue
        try:
            for part in parts[end:]:
                obj = getattr(obj, part)
        except Exception:  # noqa: BLE001 - not there (a reading may name what does not exist)
            return None
        break
    if obj is None:
        return None
    name = getattr(obj, "__name__", None) if isinstance(obj, types.ModuleType) else getattr(obj, "__module__", None)
    return name if type(name) is str else None


# of importlib, what hands back text or a spec, never an object by its name: whether a library is installed, and
# which version (a guard honest code writes; ``import_module`` and the loaders stay charged)
PLAIN_IMPORTLIB = ("importlib.metadata.version", "importlib.metadata.PackageNotFoundError", "importlib.util.find_spec")


def runs_unseen(dotted: str) -> bool:
    """Whether a resolved name (``torch.load``, ``pickle.loads``, ``os.execv``) is one of ``RUNS_UNSEEN``,
    however it is reached (``numpy.os.system`` is ``os.system``)."""
    if dotted in PLAIN_IMPORTLIB or dotted in ("importlib.metadata", "importlib.util"):  # (the module on the way)
        return False
    return reached_as(dotted, RUNS_UNSEEN) or any(
        tail.startswith(("os.exec", "os.spawn", "os.posix_spawn", "os.fork", "os.system", "os.popen", "jaxtyping._"))
        or tail.startswith("inspect.") and not _plain_inspect(tail.split(".")[1])
        for tail in tails(dotted))


# what of ``inspect`` hands back nothing a reading cannot name: signatures (``eval_str=`` is charged where
# passed) and kind tests; any other function of it returns members, frames, closures or source by name
PLAIN_INSPECT = frozenset(["signature", "Signature", "Parameter", "BoundArguments", "getfullargspec", "unwrap",
                           "cleandoc"])


def _plain_inspect(name: str) -> bool:
    return name in PLAIN_INSPECT or name.startswith("is")  # (`isclass`, `isgenerator`: kind tests)


@dataclass(frozen=True)
class Finding:
    """One place where code reachable from a gradient function could use autograd."""

    where: str  # "gradients.py:14"
    what: str  # "calls .backward()", "imports torch.autograd", "uses getattr"
    autograd: bool  # True: autograd itself; False: a way around reading the source


def audit_no_autograd(sources: dict[str, str], module: str, functions: tuple[str, ...],
                      import_time: bool = True) -> list[Finding]:
    """See ``_audit``; the same sources are read once. ``import_time`` False: what ``functions`` run when called,
    not what importing the modules they draw on runs."""
    return list(_audit(tuple(sorted(sources.items())), module, functions, package=import_time, import_time=import_time))


@functools.lru_cache(maxsize=64)
def _audit(items: tuple[tuple[str, str], ...], module: str, functions: tuple[str, ...],
           package: bool = True, import_time: bool = True) -> tuple[Finding, ...]:
    """Every use of autograd, or of a way to hide one, in code that ``functions`` of ``module`` run.

    Read: what importing the module runs (``Module.import_time``), each function and the
    module's helpers and classes it names, the package's ``__init__`` (it runs before any
    module), and, for names taken from the implementation's own other modules or its
    ``__init__``, what importing those runs and the functions used, transitively. Code
    that cannot run is left out (``Module.walk``). ``sources`` maps each of the
    implementation's module names (``__init__`` too) to its text. ``package``: start from the
    package's ``__init__`` too (else only from what ``module`` and ``functions`` draw on). ``import_time``: read
    what importing a module runs (else only the functions, and the functions and classes they name, transitively).
    """
    sources = dict(items)
    findings: list[Finding] = []
    seen: set[tuple[str, str]] = set()
    parsed, owns = _read_package(items)
    defined = frozenset(n for m in parsed.values() for n in (*m.functions, *m.classes))  # what a store may replace
    todo = [(PACKAGE, None)] * package + [(module, None)] * import_time + [(module, f) for f in functions]
    while todo:
        name, function = todo.pop()
        if (name, str(function)) in seen or name not in sources or (function is None and not import_time):
            continue
        seen.add((name, str(function)))
        if name not in parsed:  # Python may run what this reading cannot: read as hiding, not as nothing
            findings.append(Finding(f"{name}.py", "could not be read (it does not parse)", False))
            continue
        mod = parsed[name]
        if function is not None and mod.rebound(function):  # `for f in [other]`, a walrus: not read as it
            findings.append(Finding(f"{name}.py", f"binds {function} again (in a loop, a walrus, a match or a "
                                                  "with: which function runs under the name is not read)", False))
            continue
        # (what a module hands on as it is defined, ``@register``, may be called by any function: read with what
        # importing it runs)
        nodes = mod.import_time() + mod.closure(mod.handed_on()) if function is None else \
            mod.import_time() + mod.closure([*mod.functions.values(), *mod.classes.values()]) \
            if function == EVERYTHING else mod.reachable(function)
        todo += _held_modules(mod, function, sources)
        todo += [(held, EVERYTHING) for node in nodes for held in _modules_as_values(mod, node, sources)]
        if name == PACKAGE and function in sources and function != PACKAGE \
                and _package_binding_unread(mod, function, sources):
            findings.append(Finding(f"{name}.py", f"binds {function}, the name of a module of its own, where which "
                                                  "object `from . import` then takes cannot be told", False))
        if function is not None and not nodes:  # `from ._impl import *` brings it
            todo += [(sibling, function) for star in mod.stars
                     for sibling, _ in _own(f"{star}.{function}", sources, first_only=True)]
            if _star_unknown(mod, function, sources):
                findings.append(Finding(f"{name}.py", f"binds {function} by a star import whose names are not read "
                                                      "(which object it is cannot be told)", False))
        # another module's own imports (model.py's `from torch.nn import Parameter`, run because an __init__
        # imports every module) are not the gradients' business; what that module runs and hands them is
        others = function is None and name != module
        # a module __getattr__ hands out what a missing name is: a package's only to `from . import name`
        # (or `assignment.name`), which the package's lazy imports may answer in place of the module's file
        if function is None and isinstance(mod.final.get("__getattr__"), (ast.FunctionDef, ast.AsyncFunctionDef)) \
                and (name != PACKAGE or _reads_through_package(parsed)):
            found_at = mod.final["__getattr__"].lineno
            findings.append(Finding(f"{name}.py:{found_at}", "defines a module __getattr__ (what it hands out "
                                                             "is not read)", False))
        for node in nodes:
            findings.extend(_inspect(mod, node, f"{name}.py", set(sources), imports=not others, own=owns[name],
                                     code=defined, modules=parsed))
            for sibling, used in _sibling_uses(mod, node, sources, import_time=function is None):
                todo.append((sibling, None))
                if used:
                    todo.append((sibling, used))
    return tuple(sorted(set(findings), key=lambda f: (not f.autograd, f.where)))


def handed_on_at(sources: dict[str, str], where: str) -> bool:
    """Whether ``where`` ("file.py:line") is in a function its module hands on as it is defined
    (``Module.handed_on``: decorated by a decorator that may keep it), read as code any function may run."""
    name, line = _place(sources, where)
    if name is None:
        return False
    try:
        module = _in_package(sources, name)
    except SyntaxError:
        return False
    return any(node.lineno <= line <= (node.end_lineno or node.lineno) for node in module.handed_on())


def _place(sources: dict[str, str], where: str) -> tuple[str | None, int]:
    """The module of ``sources`` and the line a finding's "file.py:line" names; (None, 0) for no such place."""
    file, _, line = where.partition(":")
    name = file.removesuffix(".py")
    return (name, int(line)) if name in sources and line.isdigit() else (None, 0)


def assigned_at_top(sources: dict[str, str], where: str) -> bool:
    """Whether ``where`` ("file.py:line") is in an assignment to plain names at its module's top (or in a top-level
    try, if or with), or in a decorator of a def there, each name bound nowhere else and never declared
    ``global``: not a copy set from a function, put in a list or on an object, which no reading of a name
    follows."""
    name, at = _place(sources, where)
    if name is None:
        return False
    try:
        module = Module.parse(sources[name], name)
    except SyntaxError:
        return False
    top, todo = [], list(module.tree.body)
    while todo:  # the top's statements, with those of its try, if and with blocks
        statement = todo.pop()
        top.append(statement)
        if isinstance(statement, (ast.If, ast.Try, ast.With)):
            todo += [*statement.body, *getattr(statement, "orelse", ()), *getattr(statement, "finalbody", ()),
                     *(s for h in getattr(statement, "handlers", ()) for s in h.body)]
    here = [s for s in top if isinstance(s, ast.Assign) and s.lineno <= at <= s.end_lineno
            or isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))  # `@torch.compile` on a def of its top
            and any(d.lineno <= at <= d.end_lineno for d in s.decorator_list)]
    if len(here) != 1 or isinstance(here[0], ast.Assign) and not all(isinstance(t, ast.Name) for t in here[0].targets):
        return False
    names = {here[0].name} if not isinstance(here[0], ast.Assign) else {t.id for t in here[0].targets}
    inside = {id(node) for s in top if isinstance(s, ast.Assign) for node in ast.walk(s)} | {id(here[0])}
    return not names & module.declared_global and all(
        id(node) in inside for node in ast.walk(module.tree) if names & set(_binds(node)))


def _reads_through_package(parsed: dict[str, Module]) -> bool:
    """Whether a module of the implementation takes a name from the package itself (``from . import x``,
    ``from assignment import x``, ``import assignment.x``, ``assignment.x``): what the package's own
    ``__getattr__`` may answer. A module imported by its full name never asks it."""
    for name, mod in parsed.items():
        if name == PACKAGE:
            continue
        for node in walk(mod.tree):
            if isinstance(node, ast.ImportFrom) and ((node.level == 1 and not node.module)
                                                     or (node.level == 0 and node.module == "assignment")):
                return True
            if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "assignment" for a in node.names):
                return True
    return False


# the libraries whose names the readings look for (a clock, einops, jaxtyping): replacing one of their
# functions at import makes a reading of its name a reading of other code
READ_LIBRARIES = ("time", "timeit", "datetime", "einops", "jaxtyping", "typeguard")
REPLACING = ("replaces ", "defines a module __getattr__", "imports * from the package",
             "evaluates ")  # a jaxtyping dimension jaxtyping runs as code when the function is called


def _charged_from(source: str, name: str) -> bool:
    """Whether ``from source import name`` is charged to the audit: a module outside ``PLAIN_IMPORTS``, or one of
    autograd's names, an escape or a private name taken from one inside it."""
    return source not in PLAIN_IMPORTS or name in AUTOGRAD or name in ESCAPES \
        or (name.startswith("_") and source != "__future__")


def _own_compiler_backend(mod: Module, imported: str, node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """``torch.compile(fn, backend=my_backend)``, ``torch._dynamo.optimize(my_backend)``, a backend registered by
    name: dynamo hands the traced code to a function of the submission's, which runs whatever it returns in
    place of the code compiled. A backend torch names by a string (``backend="eager"``; a module's constant
    bound only to such strings; a table of options written out that names one, or none) runs the code."""
    if imported.startswith("torch._dynamo.") and imported.rsplit(".", 1)[-1] in ("optimize", "optimize_assert") \
            or imported.endswith(".register_backend"):
        return True
    call = parents.get(id(node))
    # called, or handed with its options to what calls it later (``functools.partial(torch.compile, backend=b)``)
    if imported not in ("torch.compile", "torch.compiler.compile") or not isinstance(call, ast.Call) \
            or call.func is not node and node not in call.args:
        return False
    for keyword in call.keywords:
        if keyword.arg == "backend" and not _names_a_backend(mod, keyword.value):
            return True
        if keyword.arg is None and not all(isinstance(table, ast.Dict) and all(
                isinstance(k, ast.Constant) and isinstance(k.value, str) for k in table.keys) and all(
                _names_a_backend(mod, v) for k, v in zip(table.keys, table.values) if k.value == "backend")
                for table in _written(mod, keyword.value)):
            return True
    return False


def _names_a_backend(mod: Module, value: ast.expr, depth: int = 0) -> bool:
    """Whether ``value`` is only ever a string: written out, either branch of an ``if`` expression, or a name
    the module binds only to such values."""
    values = _written(mod, value, depth)
    return bool(values) and all(
        isinstance(v, ast.Constant) and isinstance(v.value, str) if not isinstance(v, ast.IfExp)
        else _names_a_backend(mod, v.body, depth + 1) and _names_a_backend(mod, v.orelse, depth + 1)
        for v in values)


def _written(mod: Module, value: ast.expr, depth: int = 0) -> list[ast.expr]:
    """What ``value`` is, written out: itself, or each value a module-level name is bound to (empty where one
    is not written out there, or the chain is long)."""
    if not isinstance(value, ast.Name):
        return [value]
    rebound = any(isinstance(n, ast.Global) and value.id in n.names for n in walk(mod.tree))
    values = _bound_values(mod.tree.body, value.id) if depth < 4 and not rebound else [None]
    found = [w for v in values if v is not None for w in _written(mod, v, depth + 1)]
    return found if values and None not in values and len(found) >= len(values) else []


def replaced_at_import(sources: dict[str, str], module: str) -> list[Finding]:
    """Where importing ``module`` (with the package's ``__init__`` and what they import) may put other code
    in place of the submission's functions or of a library the readings read (``named.split_heads = ...``,
    ``einops.rearrange = ...``, ``globals()["split_heads"] = ...``, a module ``__getattr__``): then a reading
    of ``module``'s source is not a reading of what runs. (Setting torch's flags,
    ``torch.backends.cudnn.benchmark = True``, is not.)"""
    return [f for f in audit_no_autograd(sources, module, ()) if f.what.startswith(REPLACING) or _may_rebind(f)]


def _may_rebind(finding: Finding) -> bool:
    """A way to bind a name without writing the binding (``globals()["f"] = g``, ``setattr(module, "f", g)``,
    ``exec``, ``sys.modules``, ``__dict__``, ``getattr(module, "__dict__")``): in code that runs at import,
    what it may put in place of a function is not read. (A ``getattr`` of a name built at run time is not
    charged here: a table of ``getattr(torch, name)`` for each dtype's name is honest import-time code.)"""
    verb, _, what = finding.what.partition(" ")
    # (``torch.compile``, read as autograd's, is no builtin ``compile``: it wraps a function, and binds nothing)
    return verb in ("uses", "imports") and not finding.autograd and (
        what.split(" ")[0].split(".")[-1] in SETTERS or what.startswith("getattr of "))


def unwritten_lookups(sources: dict[str, str], module: str, function: str) -> list[Finding]:
    """Where what ``module.function`` runs (with what importing it runs) reaches a name its source does not
    write: a name looked up from a string (``getattr`` of a built name, ``importlib``, ``__import__``,
    ``sys.modules``, ``eval``), a frame's or a module's namespace, a module that does not parse, a function
    bound again. A reading that must show a name is NOT used (torch's own FLOP counter) proves nothing past
    one. (A ``getattr`` on torch's operator namespaces, ``getattr(torch.ops.aten, name)``, hands back an
    operator, whatever the name: not charged.) Of the other modules the package's ``__init__`` imports,
    only what may put code in place of another's counts (a store into a library or a module): a table
    they build with ``getattr`` reaches the function only through an import, and is read there."""
    items = tuple(sorted(sources.items()))
    drawn_on = [f for f in _audit(items, module, (function,), package=False) if _reaches_unwritten(f)]
    stores = [f for f in _audit(items, module, (function,)) if f.what.startswith(("patches ", *REPLACING))
              or _may_rebind(f)]
    return sorted(set(drawn_on + stores), key=lambda f: f.where)


def _cooperative(node: ast.Attribute, parents: dict[int, ast.AST]) -> bool:
    """``super().__init_subclass__(...)`` in a def of that name: a hook handing on to its base's, as
    every such hook does (the bases are read where they are defined)."""
    value = node.value
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super"
            and not value.args and not value.keywords):
        return False
    parent = parents.get(id(node))
    while parent is not None and not isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        parent = parents.get(id(parent))
    return isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and parent.name == node.attr


def _reaches_unwritten(finding: Finding) -> bool:
    """Of the audit's findings, those that make a name's absence unprovable (see ``unwritten_lookups``);
    not autograd's, nor a private attribute, nor a library the gradients must not import."""
    if finding.autograd:
        return False
    if finding.what.startswith(("could not be read", "binds ", "patches ", "hands ", *REPLACING)):
        return True  # (REPLACING includes a jaxtyping dimension evaluated as code)
    verb, _, what = finding.what.partition(" ")
    if verb == "uses" and what.startswith(("getattr on ", "getattr with ")):
        # on what hands back only what the source shows, or with names written out (`"_overloadpacket"`)
        return any(word.strip("',") in REACHING_DUNDERS for word in what.split(" ")[2:])
    name = what.split(" ")[0].lstrip(".")
    if name == "torch.overrides" or name.startswith("torch.overrides."):  # a function mode: code the source shows
        return False
    if verb == "reads":  # a namespace read by name (`globals().get(name)`): a lookup no reading follows
        return True
    if verb == "matches":  # `case C(v)` by position where C's __match_args__ cannot be told, a dunder by keyword
        return what.endswith("does not tell)") or name in ESCAPES or name in FRAME_ATTRIBUTES \
            or name in REACHING_DUNDERS
    if verb == "uses":
        return name in ESCAPES or name in FRAME_ATTRIBUTES or runs_unseen(name) or name in REACHING_DUNDERS
    if verb == "imports":
        return runs_unseen(name) or name.split(".")[-1] in ESCAPES
    return False


@functools.lru_cache(maxsize=8)
def _read_package(items: tuple[tuple[str, str], ...]) -> tuple[dict[str, Module], dict[str, Own]]:
    """Every module that parses, and what each owns: read once for all the functions audited."""
    sources = dict(items)
    parsed: dict[str, Module] = {}
    for name, text in sources.items():
        try:
            parsed[name] = Module.parse(text, name)
        except SyntaxError:
            continue  # left out here; the audit charges one in its reach (``_audit``)
    parsed = _through_siblings(parsed, sources)
    return parsed, _ownership(parsed, sources)


def _in_package(sources: dict[str, str], name: str) -> Module:
    """Module ``name`` of the package ``sources``, read with its siblings (``Module.through``); raises
    ``SyntaxError`` where it does not parse."""
    parsed, _ = _read_package(tuple(sorted(sources.items())))
    if name not in parsed:
        return Module.parse(sources[name], name)  # (raises, as the package's reading left it out)
    return parsed[name]


def _through_siblings(parsed: dict[str, Module], sources: dict[str, str]) -> dict[str, Module]:
    """Each module with ``through`` set: the names it takes from its siblings (``from .model import _derive``,
    ``from . import model`` then ``model.ag``, ``from . import grad`` from the package) that those siblings
    bound, once, to a library's object (``from torch.autograd import grad as _derive``, ``ag = torch.autograd``)
    or that only their star imports bind (``from torch.autograd import *``), read as that object. (Copies: a
    parsed module is shared by every package that holds its text.)"""
    found: dict[str, dict[str, str]] = {name: {} for name in parsed}
    for _ in range(4):  # a sibling's name taken from a sibling of its own, in turn
        grown = False
        for name, mod in parsed.items():
            for dotted in _every_import(mod):
                for taken, library in _sibling_libraries(dotted, parsed, found, sources).items():
                    if found[name].get(taken) != library:
                        found[name][taken] = library
                        grown = True
        if not grown:
            break
    package = tuple(mod.tree for mod in parsed.values())
    return {name: replace(mod, through=found[name], package=package) for name, mod in parsed.items()}


def _every_import(mod: Module) -> list[str]:
    """The dotted name of everything the module imports, at its top or in a function (``.model._derive``)."""
    found = []
    for node in walk(mod.tree):
        if isinstance(node, ast.ImportFrom):
            found += [_from_name(node, alias) for alias in node.names if alias.name != "*"]
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
    return found


def _sibling_libraries(dotted: str, parsed: dict[str, Module], found: dict[str, dict[str, str]],
                       sources: dict[str, str]) -> dict[str, str]:
    """What an import of the module's (``dotted``) takes from a sibling (or the package) that the sibling bound
    once to a library's object, or that only its star imports bind: by the dotted names the module's code
    reads it under."""
    level = len(dotted) - len(dotted.lstrip("."))
    parts = dotted.lstrip(".").split(".")
    if level == 0 and parts[0] == "assignment":
        parts = parts[1:]
    elif level > 1 or level == 0 and parts[0] not in parsed:
        return {}
    if len(parts) == 1 and parts[0] in parsed and parts[0] != PACKAGE:  # ``from . import model``
        # (``from . import vjp`` beside a vjp.py: the package's attribute, where ``__init__`` binds one, is what
        # it takes; else the module, each of its names read as ``model.x``)
        if PACKAGE in parsed and (level == 1 or dotted.startswith("assignment.")):
            library = _library_bound(parsed[PACKAGE], parts[0], parsed, found, sources)
            if library:
                return {dotted: library}
        other = parsed[parts[0]]
        taken = {f"{dotted}.{name}": _library_bound(other, name, parsed, found, sources) for name in other.bindings}
    elif len(parts) == 2 and parts[0] in parsed:  # ``from .model import x``
        taken = {dotted: _library_bound(parsed[parts[0]], parts[1], parsed, found, sources)}
    elif len(parts) == 1 and PACKAGE in parsed and dotted != "assignment":  # ``from . import x``: the package's x
        taken = {dotted: _library_bound(parsed[PACKAGE], parts[0], parsed, found, sources)}
    else:
        return {}
    return {name: library for name, library in taken.items() if library}


def _library_bound(other: Module, name: str, parsed: dict[str, Module], found: dict[str, dict[str, str]],
                   sources: dict[str, str]) -> str:
    """The library object module ``other`` binds ``name`` to, once (an import, an alias), or that only a star
    import of its may bind it to; "" where it is none, or cannot be told."""
    if name not in other.bindings:  # only a star import of its may bind it
        library = other._star_candidates(name, sources, 0, {other.name}) or ""
        return library if library and not library.startswith(".") \
            and library.split(".")[0] not in ("assignment", *parsed) else ""
    bound = other.final.get(name)
    if bound is None and other.bindings.get(name) == 1:  # bound once, where it may not run (under an `if`)
        statements = _binding_statements(other.tree, name)
        statement = statements[0] if len(statements) == 1 else None
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            bound = statement
        elif isinstance(statement, ast.Assign) and [type(t) for t in statement.targets] == [ast.Name]:
            bound = statement.value
    if other.bindings.get(name) != 1 or bound is None or name in other.declared_global:
        return ""
    if isinstance(bound, (ast.Import, ast.ImportFrom)):
        library = other.imports.get(name, "") or next(
            (f"{_from_name(bound, a)}" if isinstance(bound, ast.ImportFrom) else a.name
             for a in bound.names if (a.asname or a.name.split(".")[0]) == name), "")
    elif isinstance(bound, ast.expr):
        library = other.resolve(bound) or ""
    else:
        return ""
    library = found[other.name].get(library, library) if library.startswith(".") else library
    libraries = {v.split(".")[0] for v in other.imports.values() if not v.startswith(".")} - {"assignment", *parsed}
    if isinstance(bound, (ast.Import, ast.ImportFrom)) and not library.startswith("."):  # (imported where it may
        libraries |= {library.split(".")[0]} - {"assignment", *parsed}  # not run: no import the module records)
    return library if library and library.split(".")[0] in libraries else ""


PACKAGE = "__init__"  # the package's own module: what ``from . import name`` reads a name from


def _inspect(mod: Module, root: ast.AST, file: str, siblings: set[str], imports: bool = True,
             own: Own | None = None, annotation: ast.expr | None = None,
             code: frozenset[str] = frozenset(), modules: dict[str, Module] | None = None) -> list[Finding]:
    """``imports``: ``root`` is code the audited functions run, or their own module's import-time code; False
    for another module's import-time code (run because the package imports it), whose import statements,
    star imports, the runners of text it only names and the namespace and docstring it reads are its own
    business. ``own``: what of the module is the submission's own.
    ``annotation``: ``root`` is this annotation (a string's, parsed), read as one. ``code``: the names of
    the functions and classes the implementation's modules define (what a store into one may replace).
    ``modules``: the implementation's modules, parsed (where an annotation's names come from)."""
    own = own or Own()
    found = []
    own_keywords: set[int] = set()  # `Result(grad=...)`: a keyword of the submission's own class or function
    # `-> list[nn.Parameter]`, `weight: nn.Parameter`: looking the class up runs nothing of autograd
    inert = _naming_annotations(mod.tree) if annotation is None else \
        {id(inner) for inner in walk(annotation)} if _names_only(annotation) else set()
    # an annotation's strings are read as annotations (``_string_annotations``, jaxtyping's dimensions,
    # forward references), not as any other string
    in_annotations = _annotation_nodes(mod.tree) if annotation is None else \
        {id(inner) for inner in walk(annotation)}
    annotation_roots = _annotation_roots(mod.tree)
    scopes = _scopes(mod, root)
    parents = {id(child): node for node in walk(root) for child in ast.iter_child_nodes(node)}
    named = _literal_getattrs(mod, root, scopes)
    receivers = _getattr_receivers(mod, root, scopes)
    reading, formatted, names_only = _namespace_reads(root)
    constants_read = constant_class_namespaces(mod.tree, root)  # `vars(C)` of a class of constants
    off = _switches_off(mod, root, scopes)
    set_to_constants = {id(t) for n in walk(root) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)
                        for t in n.targets}
    for node in mod.walk(root):
        if isinstance(node, ast.Call) and (id(node.func) in own.classes or _own_function(mod, node.func, scopes)):
            own_keywords.update(id(k) for k in node.keywords  # `_chain(x, grad=g)`: a name of its own
                                if not (k.arg in AUTOGRAD_KEYWORDS and isinstance(node.func, ast.Name)
                                        and node.func.id == "dict"))  # (`**dict(requires_grad=True)`: torch's)
        where = f"{file}:{getattr(node, 'lineno', '?')}"
        imported = _imported(mod, node, scopes.get(id(node))) if isinstance(node, (ast.Name, ast.Attribute)) \
            and not _inner_local(mod, node, scopes.get(id(node))) else None
        if imported and isinstance(node.ctx, ast.Load) and runs_unseen(imported) \
                and (imports or _called(node, parents) or not reached_as(imported, TEXT_RUNNERS)) \
                and not _on_the_way_to(mod, node, parents, scopes, PLAIN_IMPORTLIB):
            found.append(Finding(where, f"uses {imported}", False))
        if imported and isinstance(node.ctx, ast.Load) and _own_compiler_backend(mod, imported, node, parents):
            found.append(Finding(where, f"replaces what {imported} compiles with a compiler backend of its own (the "
                                        "function given it runs in place of the code as written)", False))
        patched = _patched(mod, node.value, scopes) if isinstance(node, ast.Attribute) \
            and not isinstance(node.ctx, ast.Load) and not _class_datum(mod, node, parents) else None
        if patched and not (f"{patched}.".startswith(FLAGS) and id(node) in set_to_constants):
            # "replaces": what the source readings read, a function or class of the submission's own modules or
            # a library they look for; a constant set on an own module (`named.DEFAULT_HEADS = 8`) is no code
            head = patched.lstrip(".").split(".")[0]
            own_module = patched.startswith(".") or head in ("assignment", *siblings)
            # a module's __name__ set from outside makes its `if __name__ == "__main__":` branches run
            if head in READ_LIBRARIES or (own_module and (node.attr in code or node.attr == "__name__")):
                found.append(Finding(where, f"replaces {ast.unparse(node)}", False))
            elif not own_module:
                found.append(Finding(where, f"patches {ast.unparse(node)}", False))
        if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load) and node.attr in CODE_ATTRIBUTES:
            found.append(Finding(where, f"replaces {ast.unparse(node)} (the code under a name)", False))
        if isinstance(node, ast.MatchClass):  # `case object(grad=g)` reads w.grad; `case C(a)` what C names
            by_position = match_positions({**{n: m.tree for n, m in (modules or {}).items()}, mod.name: mod.tree},
                                          mod.name, node)
            for attr in [*node.kwd_attrs, *(by_position or ())]:
                if _autograd_attribute(attr):
                    found.append(Finding(where, f"matches .{attr}", True))
                elif attr.startswith("_") or attr in ESCAPES or attr in FRAME_ATTRIBUTES:
                    found.append(Finding(where, f"matches .{attr}", False))
            if by_position is None:
                found.append(Finding(where, f"matches {ast.unparse(node.cls)}(...) by position (the attributes "
                                            f"its __match_args__ names, which the source does not tell)", False))
        if id(node) in annotation_roots:  # an annotation, reached from its function or as import-time code
            computed = computed_annotation(mod, node, modules or {}, scope=scopes.get(id(node)))
            if computed:
                found.append(Finding(where, f"evaluates an annotation bound at run time ({computed}): what "
                                            "evaluates annotations runs a string there as code", False))
            for text in annotation_strings(mod, node, modules or {}):  # `_S = "..."`, then `def f(x: _S)`
                found.extend(_inspect(mod, text, file, siblings, own=own, annotation=text, code=code,
                                      modules=modules))
        for text in _string_annotations(node):  # evaluated by whatever reads annotations: read as code
            found.extend(_inspect(mod, text, file, siblings, own=own, annotation=text, code=code, modules=modules))
        if isinstance(node, ast.Constant) and type(node.value) is str and id(node) not in in_annotations \
                and id(node) not in _docstrings(mod.tree):  # (a docstring is formatted only through `__doc__`)
            for part in format_fields(node.value):  # `"{0.grad}".format(w)` reads w.grad
                if _autograd_attribute(part) or part.startswith("_") or part in FRAME_ATTRIBUTES:
                    found.append(Finding(where, f"reads .{part} through a format string ({node.value[:40]!r})",
                                         _autograd_attribute(part)))
        if imports and imported and isinstance(node.ctx, ast.Load) and _jaxtyping_handed_on(imported, node, parents):
            found.append(Finding(where, f"hands {imported} on as a value (jaxtyping evaluates a shape given to it "
                                        "elsewhere as code: subscript it where it is named, with a written shape)",
                                 False))
        if isinstance(node, ast.Subscript):  # `Float[Tensor, "n d-1"]`: jaxtyping evaluates "d-1" as code
            for expression in _jaxtyping_dims(mod, node, scopes, found, where):
                found.extend(_inspect(mod, expression, file, siblings, own=own, code=code, modules=modules))
            for text in _forward_references(mod, node, scopes):  # `List["..."]`: what a type checker evaluates
                found.extend(_inspect(mod, text, file, siblings, own=own, annotation=text, code=code,
                                      modules=modules))
        if isinstance(node, ast.ImportFrom) and node.level <= 1 and (node.module or "") in ("", "assignment") \
                and (node.level or node.module) and any(a.name == "*" for a in node.names):
            found.append(Finding(where, "imports * from the package (the modules its __all__ may name are not "
                                        "read)", False))
        elif isinstance(node, ast.ImportFrom) and not node.level and any(a.name == "*" for a in node.names) \
                and (node.module or "").split(".")[0] != "assignment" and node.module not in STAR_LIBRARIES \
                and imports:  # (another module's `from os.path import *` binds names there, read where used)
            found.append(Finding(where, f"imports * from {node.module} (which names it binds is not read: import "
                                        "the names you use)", False))
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not imports:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                # autograd imported but never used where code runs (a `__main__` self-check's gradcheck) runs
                # nothing of autograd: `import torch.autograd` binds torch, as `import torch` does (what it reads
                # of torch.autograd is charged where read), and a name running code never mentions is not used.
                # (Other imports, a way around the reading, are charged whether used or not.)
                if alias.name not in PLAIN_IMPORTS and alias.name.split(".")[0] not in {"assignment", *siblings} \
                        and not (_autograd_name(alias.name) and (
                            (alias.asname is None and alias.name.split(".")[0] in PLAIN_IMPORTS)
                            or not _mentioned(mod, alias.asname or alias.name.split(".")[0], node))):
                    found.append(Finding(where, f"imports {alias.name}", _autograd_name(alias.name)))
        elif isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level or source.split(".")[0] in {"assignment", *siblings}:
                # the implementation's own modules: followed where they are used; but a library's object a
                # sibling took (``from torch.autograd import grad as _derive``, then ``from .model import
                # _derive``) is charged here as that import would be
                for alias in node.names:
                    full = mod._library(_from_name(node, alias))
                    library, _, name = full.rpartition(".")
                    charged = full not in PLAIN_IMPORTS if not library else _charged_from(library, name)
                    if full != _from_name(node, alias) and charged:
                        found.append(Finding(where, f"imports {full} (through a module of its own)",
                                             _autograd_name(full)))
                continue
            for alias in node.names:
                full = f"{source}.{alias.name}"
                if full in TURNING_OFF or full in PLAIN_FROM_AUTOGRAD:  # `from torch.autograd import no_grad`
                    continue
                # (what of a plain module runs unseen, `from doctest import testmod`, is charged where used)
                if _charged_from(source, alias.name) \
                        and not (_autograd_name(full) and not _mentioned(mod, alias.asname or alias.name, node)):
                    found.append(Finding(where, f"imports {full}", _autograd_name(full)))
        elif isinstance(node, ast.Attribute) and imported in PLAIN_NAMES:
            continue  # `re.compile(...)`: a pattern, not the builtin compile nor torch.compile
        elif isinstance(node, ast.Attribute):
            mine = _own_object(node.value, own) or id(node) in own.module_attributes
            dunder = node.attr.startswith("__") and node.attr.endswith("__")
            if _autograd_attribute(node.attr) and not (imported or "").startswith("inspect."):  # (inspect.Parameter)
                # `SquaredError.backward`, `self.grad`: the submission's own, read where defined
                parent = parents.get(id(node))
                # `torch.func.vmap(...)`: the module on the way to a plain name (as `from torch.func import vmap`)
                plain = isinstance(parent, ast.Attribute) and parent.value is node \
                    and _imported(mod, parent, scopes.get(id(parent))) in PLAIN_FROM_AUTOGRAD
                if not mine and not plain and not _reads_flag(mod, node, scopes) and id(node) not in off \
                        and not (node.attr in TYPES and id(node) in inert) and node.attr not in own.method_names \
                        and not _only_tested_for_none(node, parent):
                    found.append(Finding(where, f"uses .{node.attr}", True))
            elif dunder:
                if node.attr not in PLAIN_DUNDER_ATTRIBUTES and (imports or node.attr != "__doc__") \
                        and not _cooperative(node, parents) and id(node) not in constants_read \
                        and not (node.attr == "__dict__" and _self(mod, node.value)):  # (its own attributes)
                    found.append(Finding(where, f"uses .{node.attr}", False))
            elif (node.attr.startswith("_") and not (mine or _self(mod, node.value))) or node.attr in ESCAPES \
                    or node.attr in FRAME_ATTRIBUTES:
                found.append(Finding(where, f"uses .{node.attr}", False))
        elif isinstance(node, ast.Name):
            names = named.get(id(node), [])
            autograd = [n for n in names if n in AUTOGRAD or "backward" in n]
            if autograd:  # `getattr(w, "grad")` is `w.grad`
                found.append(Finding(where, f"uses .{autograd[0]}", True))
            elif node.id in ESCAPES and isinstance(node.ctx, ast.Load) and node.id not in mod.functions \
                    and not (names and all(_plain_attribute(n) for n in names)) and id(node) not in constants_read \
                    and not _own_namespace(mod, node, parents):
                setters = [n for n in names if n in SETTERS]  # `getattr(module, "__dict__")` reaches a setter
                on = receivers.get(id(node))  # `getattr(torch.ops.aten, name)`: an op, whatever the name
                if id(node) in reading:  # `[n for n in globals() if ...]`: a namespace read, nothing set
                    if imports and id(node) not in formatted and id(node) not in names_only:
                        # (in another module's import-time code, a read is its own; `"{n}x{k}".format(**locals())`:
                        # fields of text written out, read as code where they are, the names they look up no object
                        # of their own choosing; `__all__ = [n for n in dir() if ...]`: names, no object)
                        found.append(Finding(where, f"reads {node.id}()", False))
                    continue
                found.append(Finding(where, f"uses {node.id}" + (f" of {setters[0]}" if setters else
                                                                 f" on {on}" if on else
                                                                 f" with {', '.join(map(repr, names))}" if names
                                                                 else ""), False))
            elif (node.id.startswith("__") and node.id.endswith("__") and node.id not in PLAIN_DUNDERS
                  and isinstance(node.ctx, ast.Load) and id(node) not in _class_body_methods(mod.tree)
                  and (imports or node.id != "__doc__")):  # (`description=__doc__` in another module: its text)
                found.append(Finding(where, f"uses {node.id}", False))
            elif isinstance(node.ctx, ast.Load) and (taken := imported or (
                    mod.imports.get(node.id) if node.id not in (scopes.get(id(node)) or {})
                    and node.id not in _function_locals(mod.tree).get(id(node), ()) else None)) \
                    and _autograd_import(taken) and (imports or not _a_base(node, parents)) \
                    and not (taken.split(".")[-1] in TYPES and id(node) in inert):
                # (`from torch.autograd import grad as _g`, under any name; a local of the same name is the local)
                found.append(Finding(where, f"uses {taken}", True))
            elif node.id in AUTOGRAD and isinstance(node.ctx, ast.Load) and node.id not in mod.bindings \
                    and mod.stars and node.id not in (scopes.get(id(node)) or {}):
                # `grad` bound only by a `from torch.autograd import *`: whatever it is, it is not read
                found.append(Finding(where, f"uses {node.id} (a star import's)", True))
        elif isinstance(node, ast.keyword) and node.arg in AUTOGRAD and id(node) not in own_keywords and not (
                isinstance(node.value, ast.Constant) and node.value.value is False):  # requires_grad=False
            found.append(Finding(where, f"passes {node.arg}=", True))
        elif isinstance(node, ast.Dict) and any(
                isinstance(key, ast.Constant) and key.value in AUTOGRAD_KEYWORDS
                and not (isinstance(value, ast.Constant) and value.value is False)
                for key, value in zip(node.keys, node.values)):  # `**{"requires_grad": True}`: a keyword all the same
            found.append(Finding(where, "passes requires_grad= (a dict's key, handed on as a keyword)", True))
        elif isinstance(node, ast.keyword) and node.arg == "eval_str" and not (
                isinstance(node.value, ast.Constant) and node.value.value is False):
            found.append(Finding(where, "passes eval_str= (annotations evaluated as code)", False))
        if isinstance(node, ast.Constant) and node.value in CODE_ATTRIBUTES and id(node) not in in_annotations:
            # `update_wrapper(f, g, assigned=("__code__",))`, `operator.setitem(..., "__code__", ...)`: a
            # function's code or state set under a name written as text, by a call that does the store itself
            found.append(Finding(where, f"replaces what {node.value!r} names, by a name written as text (a "
                                        "function's code swapped through a string)", False))
        wrapper = _imported(mod, node.func, scopes.get(id(node.func))) if isinstance(node, ast.Call) else None
        if wrapper in WRAPPERS and (len(node.args) > WRAPPERS[wrapper]
                                    or any(k.arg in ("assigned", "updated") or k.arg is None for k in node.keywords)):
            found.append(Finding(where, f"replaces the attributes {ast.unparse(node.func)} is told to copy from "
                                        "one function to another (a function's code swapped by a call)", False))
        if isinstance(node, ast.Call) and imports:
            made = _annotations_made_as_text(mod, node, scopes.get(id(node)))
            if made:
                found.append(Finding(where, f"evaluates {made}", False))
    return found


# what makes a class from field types given as values: a string among them is an annotation, code to what
# evaluates annotations (``functools.singledispatch``'s register, a type checker)
CLASS_MAKERS = frozenset(["dataclasses.make_dataclass", "typing.NamedTuple", "typing.TypedDict",
                          "typing_extensions.NamedTuple", "typing_extensions.TypedDict", "types.new_class", "type"])


def _annotations_made_as_text(mod: Module, call: ast.Call, scope: dict[str, str] | None) -> str:
    """What a call that makes a class (``CLASS_MAKERS``) evaluates as code: field types not written as
    types (``make_dataclass("S", [("f", "<text>")])``, fields made at run time), or a namespace with
    ``__annotations__`` (``type("S", (), {...})``). "" when its fields are types written out."""
    maker = mod.resolve(call.func, scope=scope) or ""
    if maker not in CLASS_MAKERS or len(call.args) < 2 and not call.keywords:
        return ""
    if maker == "type":  # `type(x)` asks a type; `type(name, bases, namespace)` makes one
        if len(call.args) != 3:
            return ""
        namespace = call.args[2]
        if isinstance(namespace, ast.Dict) and all(isinstance(k, ast.Constant) and k.value != "__annotations__"
                                                   for k in namespace.keys):
            return ""
        return "a class's namespace made at run time (its annotations)"
    fields = call.args[1] if len(call.args) > 1 else None
    if maker.endswith("TypedDict") and isinstance(fields, ast.Dict):
        types = list(fields.values)
    elif isinstance(fields, (ast.List, ast.Tuple)) and all(isinstance(f, (ast.Tuple, ast.List)) or (
            isinstance(f, ast.Constant) and isinstance(f.value, str)) for f in fields.elts):
        types = [f.elts[1] for f in fields.elts if isinstance(f, (ast.Tuple, ast.List)) and len(f.elts) >= 2]
    else:
        return "field types made at run time (annotations, evaluated as code by what reads them)"
    if call.keywords and not maker.endswith(("make_dataclass",)):
        types += [k.value for k in call.keywords if k.arg not in ("total",)]
    if all(_type_like(mod, t) and not (isinstance(t, ast.Constant) and isinstance(t.value, str)
                                       and not _names_a_type(t.value)) for t in types):
        return ""
    return "field types given as text (annotations, evaluated as code by what reads them)"


def _names_a_type(text: str) -> bool:
    """Whether a field type given as text only names a type (``"int"``, ``"torch.Tensor"``, ``"list[int]"``):
    evaluated, it looks names up and calls nothing."""
    try:
        parsed = _parse_expression(text.strip())
    except SyntaxError:
        return False
    return _names_only(parsed) and not any(
        isinstance(n, ast.Attribute) and (_autograd_attribute(n.attr) or n.attr.startswith("_"))
        or isinstance(n, ast.Name) and (n.id in AUTOGRAD or n.id.startswith("_")) for n in walk(parsed))


def _mentioned(mod: "Module", name: str, imported_by: ast.AST | None = None) -> bool:
    """Whether code of the module that can run names ``name`` anywhere (read, bound again, deleted, in a
    string a lookup may take), the imports themselves aside; a module that hands its namespace out
    (``globals()``, ``vars()``, ``__getattr__``) mentions every name. A name ``imported_by`` an import in a class
    body is an attribute of the class, which any module may read: mentioned."""
    if imported_by is not None and id(imported_by) in class_scoped_imports(mod.tree):
        return True
    mentioned = mod.__dict__.get("_mentioned")
    if mentioned is None:
        mentioned = set()
        local = _function_locals(mod.tree)
        for node in mod.walk(mod.tree):
            if isinstance(node, ast.Name) and node.id not in local.get(id(node), ()):  # (a function's own `grad`
                mentioned.add(node.id)  # is no mention of the module's)
            elif isinstance(node, ast.Attribute):
                mentioned.add(node.attr)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                mentioned.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", node.value))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "__getattr__":
                mentioned.add("*")
        if mentioned & {"globals", "vars", "locals", "dir", "__dict__"}:
            mentioned.add("*")
        mod._mentioned = mentioned
    return name in mentioned or "*" in mentioned


def _declared_global(node: ast.AST) -> frozenset[str]:
    """The names a function declares ``global`` in its own body (not in a function or class inside it)."""
    names: set[str] = set()
    todo = list(node.body) if isinstance(getattr(node, "body", None), list) else []
    while todo:
        inner = todo.pop()
        if isinstance(inner, ast.Global):
            names.update(inner.names)
        elif not isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(inner))
    return frozenset(names)


def _class_binds(node: ast.ClassDef) -> frozenset[str]:
    """The names a class body binds itself (its statements', not its methods' bodies: a method's name is one)."""
    names: set[str] = set()
    todo: list[ast.AST] = list(node.body)
    while todo:
        inner = todo.pop()
        names.update(n for n in _binds(inner) if n != "*")
        if not isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(inner))
    return frozenset(names)


def _function_locals(tree: ast.Module) -> dict[int, frozenset[str]]:
    """Each node inside a function (or lambda) of the module -> the names local there (``_locals`` of it and of
    the functions around it): a name among them read or bound there is the function's own, any other the
    module's (a method's body does not see its class's names). A node outside every function (the module's top,
    a class body) is not listed. A def's decorators, defaults and annotations stand where the def does."""
    found = tree.__dict__.get("_function_locals")
    if found is None:
        found, pinned = {}, {}  # pinned: a def's decorators, defaults and annotations, to where the def stands
        todo: list[tuple[ast.AST, frozenset[str] | None]] = [(tree, None)]
        while todo:
            node, local = todo.pop()
            local = pinned.get(id(node), local)
            if local is not None:
                found[id(node)] = local
            inner = local
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                # (a name the function declares global is the module's there, whatever the functions around bind)
                inner = ((local or frozenset()) - _declared_global(node)) | _locals(node)
                pinned.update(dict.fromkeys(_enclosing_ids(node), local))
            elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
                # a comprehension's variables are its own (its first iterable is read where it stands)
                targets = frozenset(n.id for g in node.generators for n in walk(g.target)  # (bound, not read:
                                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))  # `box[k]` reads k)
                first = node.generators[0].iter
                pinned.update(dict.fromkeys((id(n) for n in walk(first)), local))
                inner = (local or frozenset()) | targets
            elif isinstance(node, ast.ClassDef) and local is not None:
                # a class body inside a function reads a name it binds itself from the class, then the module: never
                # from the function around it (its methods do see the function's)
                own = _class_binds(node)
                todo += [(child, local if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else local - own)
                         for child in ast.iter_child_nodes(node)]
                continue
            todo += [(child, inner) for child in ast.iter_child_nodes(node)]
        tree._function_locals = found
    return found


def _autograd_import(dotted: str) -> bool:
    """Whether an imported name is one of autograd's, under any local name (``from torch.autograd import grad
    as _g``, ``from torch.nn import Parameter as P``): a part of its dotted name is (a private part is not:
    ``TorchDispatchMode`` comes from torch.utils._python_dispatch)."""
    parts = dotted.split(".")
    return (parts[0] == "torch" or parts[0] == "functorch") and any(part in AUTOGRAD for part in parts[1:]) \
        and dotted not in PLAIN_FROM_AUTOGRAD and dotted not in TURNING_OFF


def _only_tested_for_none(node: ast.Attribute, parent: ast.AST | None) -> bool:
    """``assert grad_w.grad_fn is None``: a sanity check that no graph was built, which runs nothing of
    autograd's (the node is only compared, never called or handed on)."""
    return node.attr in ("grad_fn", "grad") and isinstance(node.ctx, ast.Load) and isinstance(parent, ast.Compare) \
        and len(parent.ops) == 1 and isinstance(parent.ops[0], (ast.Is, ast.IsNot)) \
        and parent.left is node and isinstance(parent.comparators[0], ast.Constant) \
        and parent.comparators[0].value is None


def _autograd_attribute(attr: str) -> bool:
    """Whether reading attribute ``attr`` (with a dot or a class pattern) may be autograd: one of its names,
    or a ``backward`` that is not one of the spec's own names."""
    return attr in AUTOGRAD or ("backward" in attr and attr not in OWN)


def _scopes(mod: Module, root: ast.AST) -> dict[int, dict[str, str]]:
    """Each node of ``root`` inside a function, with the function's local names (``Module.scope``;
    a nested function's are its outermost function's): ``T = torch`` there makes ``T.load`` torch's."""
    scopes: dict[int, dict[str, str]] = {}
    todo = [root]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            scope = mod.scope(node)
            scopes.update((id(inner), scope) for inner in walk(node))
            continue
        todo.extend(ast.iter_child_nodes(node))
    return scopes


def _inner_local(mod: Module, node: ast.expr, scope: dict[str, str] | None) -> bool:
    """Whether the name ``node`` starts from is local where it stands (``_function_locals``: a nested def's
    parameter, a lambda's, a comprehension's variable) but not one of ``scope``'s, the outermost function's names:
    a local the reading cannot name, not the module's name of the same spelling."""
    base = _base_name(node)
    return base is not None and base.id in _function_locals(mod.tree).get(id(base), ()) \
        and base.id not in (scope or {})


def _imported(mod: Module, node: ast.expr, scope: dict[str, str] | None) -> str | None:
    """The dotted name ``node`` resolves to when its first name stands for something imported
    (``pickle.loads``, ``T.load`` after ``T = torch``); None for anything else (a name of the module's own,
    a builtin, a local the reading cannot name)."""
    base = node
    while isinstance(base, ast.Attribute):
        base = base.value
    if not isinstance(base, ast.Name):
        return None
    first = mod.resolve(base, scope=scope)
    # `import sys` inside the function binds `sys` as the module-level import would
    if not first or (first == base.id and base.id not in mod.imports and not (scope or {}).get(base.id)):
        return None
    return mod.resolve(node, scope=scope)


def _literal_getattrs(mod: Module, root: ast.AST, scopes: dict[int, dict[str, str]]) -> dict[int, list[str]]:
    """The builtin ``getattr`` of each ``getattr(obj, name)`` in ``root`` whose name can only be one of
    a few string literals, with them: a literal (``getattr(torch, "float8_e4m3fn", None)``), or the
    variable of a comprehension over a literal tuple (``getattr(torch, n) for n in ("a", "b")``) that
    nothing else in it binds. Not one that may name what runs unseen (``getattr(torch, "load")``)."""
    literal: dict[int, list[str]] = {}  # id of a comprehension variable's Name -> what it can be
    for node in mod.walk(root):
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            variables: dict[str, list[str]] = {}
            for generator in node.generators:
                values = _literal_strings(mod, generator.iter)
                if isinstance(generator.target, ast.Name) and values is not None \
                        and _bindings(node, generator.target.id) == 1:
                    variables[generator.target.id] = values
            if variables:  # one walk for all its variables: one per `for` clause was quadratic in the clauses
                for inner in walk(node):
                    if isinstance(inner, ast.Name) and inner.id in variables:
                        literal[id(inner)] = variables[inner.id]
    found: dict[int, list[str]] = {}
    for node in mod.walk(root):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) in (2, 3)
                and not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args)
                and mod.resolve(node.func, scope=scopes.get(id(node.func))) == "getattr"):
            continue
        name = node.args[1]
        names = [name.value] if isinstance(name, ast.Constant) and isinstance(name.value, str) \
            else literal.get(id(name))
        dotted = _imported(mod, node.args[0], scopes.get(id(node.args[0])))
        if names and not (dotted and any(runs_unseen(f"{dotted}.{n}") for n in names)):
            found[id(node.func)] = names
    return found


NAMESPACES = frozenset(["globals", "vars", "locals", "dir"])
# what reads a namespace and keeps nothing of it that could set a name: iterating it, asking it
READ_ONLY_METHODS = frozenset(["items", "keys", "values", "get", "copy", "__contains__"])
READ_ONLY_CALLS = frozenset(["list", "sorted", "set", "frozenset", "tuple", "len", "dict", "iter", "print", "repr",
                             "str", "any", "all", "enumerate", "filter", "map"])
# ... and of those, what hands out the namespace's names alone (iterating a mapping yields its keys), never
# an object bound there nor its ``repr`` (code of its own): ``__all__ = [n for n in dir() if ...]`` reaches nothing
NAMES_ONLY_METHODS = frozenset(["keys", "__contains__"])
NAMES_ONLY_CALLS = frozenset(["list", "sorted", "set", "frozenset", "tuple", "len", "iter", "any", "all", "enumerate",
                              "filter", "map"])


def constant_classes(tree: ast.Module) -> frozenset[str]:
    """The module's classes used as a namespace of constants: ``class C:`` at the top level (no base but
    ``object``, no keyword, no decorator: its metaclass is ``type``), whose body binds only constants written
    out (``H100 = 3.35e12``, ``A: float = 1.0``, a tuple of them, a docstring), its name bound by nothing
    else in the file. ``vars(C)`` and ``C.__dict__`` are then the read-only mapping ``type`` made: nothing
    is bound through it, and all it hands out are those constants and type's own entries (``__module__``,
    ``__doc__``, the descriptors of C's instances' ``__dict__`` and ``__weakref__``, which serve C's
    instances alone). Counted once per tree and kept on it."""
    known = getattr(tree, "_constant_classes", None)
    if known is not None:
        return known
    counts = _bound_counts(tree)

    def constant(value: ast.expr | None) -> bool:
        if isinstance(value, ast.UnaryOp) and isinstance(value.op, (ast.USub, ast.UAdd)):
            value = value.operand
        if isinstance(value, ast.Tuple):
            return all(constant(v) for v in value.elts)
        return isinstance(value, ast.Constant)

    def plain(node: ast.ClassDef) -> bool:
        return not node.decorator_list and not node.keywords and all(
            isinstance(b, ast.Name) and b.id == "object" and counts["object"] == 0 for b in node.bases) \
            and all(isinstance(s, ast.Pass) or isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                    or isinstance(s, ast.Assign) and all(isinstance(t, ast.Name) for t in s.targets)
                    and constant(s.value)
                    or isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and s.simple
                    and _names_only(s.annotation) and (s.value is None or constant(s.value)) for s in node.body)

    stars = any(isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names) for n in tree.body)
    known = frozenset() if stars else frozenset(
        node.name for node in tree.body if isinstance(node, ast.ClassDef) and counts[node.name] == 1 and plain(node))
    tree._constant_classes = known
    return known


def constant_class_namespaces(tree: ast.Module, root: ast.AST) -> set[int]:
    """The ``vars`` names of ``vars(C)`` and the ``.__dict__`` attributes of ``C.__dict__`` in ``root``
    where C is one of the module's ``constant_classes`` and ``vars`` the builtin: a read of constants,
    which binds nothing (the mapping is read-only) and runs nothing."""
    classes = constant_classes(tree)
    if not classes:
        return set()
    builtin_vars = _bound_counts(tree)["vars"] == 0
    found: set[int] = set()
    for node in walk(root):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "vars" \
                and builtin_vars and len(node.args) == 1 and not node.keywords \
                and isinstance(node.args[0], ast.Name) and node.args[0].id in classes:
            found.add(id(node.func))
        elif isinstance(node, ast.Attribute) and node.attr == "__dict__" and isinstance(node.ctx, ast.Load) \
                and isinstance(node.value, ast.Name) and node.value.id in classes:
            found.add(id(node))
    return found


def names_only_reads(root: ast.AST) -> set[int]:
    """The ``globals`` / ``vars`` / ``locals`` / ``dir`` names in ``root`` called with no argument whose result is
    read for its names alone (``__all__ = [n for n in globals() if ...]``, ``"x" in vars()``, ``sorted(dir())``):
    no object comes out, and no name is set through them (see ``_namespace_reads``)."""
    return _namespace_reads(root)[2]


def _namespace_reads(root: ast.AST) -> tuple[set[int], set[int], set[int]]:
    """The ``globals`` / ``vars`` / ``locals`` / ``dir`` names in ``root`` called with no argument whose
    namespace is only read where it is made (``__all__ = [n for n in globals() if ...]``, ``"x" in vars()``,
    ``globals().get(name)``, ``"{n}".format(**locals())``): no name is set through them. Kept, or stored
    into, it may set any. Of those, the ``locals`` / ``vars`` handed by ``**`` to ``.format`` of text
    written out (``"{m}x{k}".format(**locals())``): its fields name what they read, and are read as code.
    And those read for their names alone (iterated, asked ``in``, sorted): no object comes out, whatever the
    name is bound to (``dir`` set from another module to ``vars`` still hands out keys)."""
    parents = {id(child): parent for parent in walk(root) for child in ast.iter_child_nodes(parent)}
    reads: set[int] = set()
    formatted: set[int] = set()
    names_only: set[int] = set()
    for node in walk(root):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in NAMESPACES
                and not node.args and not node.keywords):
            continue
        parent = parents.get(id(node))
        grand = parents.get(id(parent)) if parent is not None else None
        splatted = isinstance(parent, ast.keyword) and parent.arg is None  # ``**locals()``: a call gets a copy
        if _read_for(node, parent, grand, READ_ONLY_METHODS, READ_ONLY_CALLS) or splatted:
            reads.add(id(node.func))
        if _read_for(node, parent, grand, NAMES_ONLY_METHODS, NAMES_ONLY_CALLS):
            names_only.add(id(node.func))
        if splatted and node.func.id in ("locals", "vars") and isinstance(grand, ast.Call) \
                and isinstance(grand.func, ast.Attribute) and grand.func.attr == "format" \
                and isinstance(grand.func.value, ast.Constant) and isinstance(grand.func.value.value, str):
            formatted.add(id(node.func))
    return reads, formatted, names_only


def _read_for(node: ast.Call, parent: ast.AST | None, grand: ast.AST | None, methods: frozenset[str],
              calls: frozenset[str]) -> bool:
    """Whether the namespace ``node`` makes is only read where it is made: iterated, asked ``in``, or handed to
    one of ``methods`` called on it at once, or to one of ``calls`` (see ``_namespace_reads``)."""
    return (isinstance(parent, ast.comprehension) and parent.iter is node) \
        or (isinstance(parent, (ast.For, ast.AsyncFor)) and parent.iter is node) \
        or (isinstance(parent, ast.Compare) and node in parent.comparators
            and all(isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops)) \
        or (isinstance(parent, ast.Attribute) and parent.attr in methods
            and isinstance(grand, ast.Call) and grand.func is parent) \
        or (isinstance(parent, ast.Call) and node in parent.args and isinstance(parent.func, ast.Name)
            and parent.func.id in calls)


def _literal_getattr(node: ast.AST) -> str | None:
    """The name of ``getattr(obj, "name")`` (or with a default), written as a string; None for anything
    else. (Whether ``getattr`` is the builtin is the caller's to resolve.)"""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" \
            and len(node.args) in (2, 3) and not node.keywords \
            and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
        return node.args[1].value
    return None


def _literal_strings(mod: Module, node: ast.expr) -> list[str] | None:
    """The strings ``node`` can only be, when it is written as them: a literal tuple, list or set of
    strings, ``"a b".split()``, or a module-level name bound once to one of those (in a module with no star
    import, which may bind it again: ``from .helpers import *``)."""
    if isinstance(node, ast.Name) and _bound_counts(mod.tree)[node.id] == 1 and not mod.stars \
            and isinstance(mod.final.get(node.id), ast.expr):
        node = mod.final[node.id]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)) \
            and all(isinstance(v, ast.Constant) and isinstance(v.value, str) for v in node.elts):
        return [v.value for v in node.elts]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "split" \
            and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str) \
            and not node.args and not node.keywords:
        return node.func.value.value.split()
    return None


def _written_prefix(name: ast.expr) -> bool:
    """A name built after a written prefix (``"_" + op``, ``f"visit_{op}"``): a visitor's lookup of its own
    methods. (A method called through its class, ``Cls.step(torch.utils, name)``, gets any ``self``; a
    prefix keeps the name among the class's own.)"""
    if isinstance(name, ast.BinOp) and isinstance(name.op, ast.Add):
        return isinstance(name.left, ast.Constant) and isinstance(name.left.value, str) and name.left.value != ""
    if isinstance(name, ast.JoinedStr) and name.values:
        first = name.values[0]
        return isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value != ""
    return False


def _method_receivers(mod: Module) -> set[int]:
    """The ids of each ``self`` / ``cls`` Name that is a method's own first parameter, bound only as that
    (read once per module: each statement's audit asks)."""
    found = mod.__dict__.get("_method_receivers")
    if found is None:
        found = set()
        for cls in walk(mod.tree):
            if isinstance(cls, ast.ClassDef):
                for method in cls.body:
                    if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and method.args.args \
                            and method.args.args[0].arg in ("self", "cls") \
                            and _bindings(method, method.args.args[0].arg) == 1:
                        first = method.args.args[0].arg
                        found.update(id(n) for n in walk(method) if isinstance(n, ast.Name) and n.id == first)
        mod.__dict__["_method_receivers"] = found
    return found


def _getattr_receivers(mod: Module, root: ast.AST, scopes: dict[int, dict[str, str]]) -> dict[int, str]:
    """The builtin ``getattr`` of each ``getattr(obj, name)`` in ``root`` whose ``obj`` hands back nothing
    but what the source shows, with it: one of torch's operator namespaces (``torch.ops.aten``: an operator,
    whatever the name), a comprehension's variable over a literal tuple of them (``getattr(packet, name)
    for packet in (aten.mm, aten.bmm) ...``), or a method's own ``self`` / ``cls`` with a name after a
    written prefix (a visitor's ``getattr(self, "_" + name)``; not a plain function's parameter of that name)."""
    def operators(value: ast.expr) -> bool:  # a namespace (torch.ops.aten), never torch.ops itself, whose
        # attributes are not all operators: `getattr(torch.ops, "import_" + "module")` is importlib's
        dotted = _imported(mod, value, scopes.get(id(value))) or ""
        return dotted.startswith("torch.ops.")

    over_operators: set[int] = set()  # ids of loop variables' Names that only hold torch.ops attributes
    for node in mod.walk(root):
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            for generator in node.generators:
                name = _operator_loop(mod, generator.target, generator.iter, operators)
                if name is not None and _bindings(node, name) == 1:
                    over_operators.update(id(n) for n in walk(node) if isinstance(n, ast.Name) and n.id == name)
        elif isinstance(node, (ast.For, ast.AsyncFor)):  # a statement's loop: every binding of its name in the
            # function (or the module) around it a loop over operators
            name = _operator_loop(mod, node.target, node.iter, operators)
            scope = _scope_around(mod, node)
            if name is not None and _bindings(scope, name) == sum(
                    _operator_loop(mod, loop.target, loop.iter, operators) == name for loop in walk(scope)
                    if isinstance(loop, (ast.For, ast.AsyncFor))):
                over_operators.update(id(n) for n in walk(scope) if isinstance(n, ast.Name) and n.id == name)
    own_instance = _method_receivers(mod)
    found: dict[int, str] = {}
    for node in mod.walk(root):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args \
                and mod.resolve(node.func, scope=scopes.get(id(node.func))) == "getattr":
            receiver = node.args[0]
            if operators(receiver) or id(receiver) in over_operators:
                found[id(node.func)] = "torch.ops"
            elif id(receiver) in own_instance and len(node.args) > 1 and _written_prefix(node.args[1]):
                found[id(node.func)] = receiver.id
    return found


def _operator_loop(mod: Module, target: ast.expr, iterable: ast.expr, operators) -> str | None:
    """The name a loop binds to torch operators alone (``operators`` tells one), or None: ``for op in (aten.mm,
    aten.bmm)``, over a table's keys (``for op in FORMULAS``, ``FORMULAS.keys()``), the first of ``for op, f in
    FORMULAS.items()``; a table written out in place or bound once at the module's top."""
    def rows(table: ast.expr, depth: int = 0) -> list[ast.expr] | None:
        if isinstance(table, (ast.Tuple, ast.List, ast.Set)):
            return None if any(isinstance(e, ast.Starred) for e in table.elts) else list(table.elts)
        if isinstance(table, ast.Dict):
            return None if any(k is None for k in table.keys) else list(table.keys)
        if isinstance(table, ast.Name) and depth < 4 and mod.bindings.get(table.id) == 1 \
                and table.id not in _function_locals(mod.tree).get(id(table), ()) \
                and table.id not in mod.declared_global and isinstance(mod.final.get(table.id), ast.expr) \
                and _only_read(mod, table.id):
            return rows(mod.final[table.id], depth + 1)
        return None

    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute) \
            and iterable.func.attr in ("keys", "items") and not iterable.args and not iterable.keywords:
        keys = rows(iterable.func.value)
        if iterable.func.attr == "items":  # ``for op, f in T.items()``: op is a key
            target = target.elts[0] if isinstance(target, ast.Tuple) and len(target.elts) == 2 else None
    else:
        keys = rows(iterable)
    if not isinstance(target, ast.Name) or not keys or not all(operators(key) for key in keys):
        return None
    return target.id


def _only_read(mod: Module, name: str) -> bool:
    """Whether the module only reads its table ``name``: iterated, indexed, or asked ``keys``/``items``/``values``/
    ``get``; never stored into, handed on (where a callee may change it) or deleted from."""
    parents = _parents(mod)
    for node in walk(mod.tree):
        if not (isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)):
            continue
        parent = parents.get(id(node))
        if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)) and parent.iter is node:
            continue
        if isinstance(parent, ast.Subscript) and parent.value is node and isinstance(parent.ctx, ast.Load):
            continue
        if isinstance(parent, ast.Attribute) and parent.attr in ("keys", "items", "values", "get") \
                and isinstance(parents.get(id(parent)), ast.Call) and parents[id(parent)].func is parent:
            continue
        if isinstance(parent, ast.Compare) and node is not parent.left:  # `op in TABLE`
            continue
        return False
    return True


def _parents(mod: Module) -> dict[int, ast.AST]:
    """Each node of the module's tree -> the node holding it (made once a tree)."""
    parents = mod.tree.__dict__.get("_parents")
    if parents is None:
        parents = mod.tree._parents = {id(c): n for n in walk(mod.tree) for c in ast.iter_child_nodes(n)}
    return parents


def _scope_around(mod: Module, node: ast.AST) -> ast.AST:
    """The function (or lambda) whose scope ``node`` is in, or the module."""
    parents = _parents(mod)
    parent = parents.get(id(node))
    while parent is not None and not isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        parent = parents.get(id(parent))
    return parent if parent is not None else mod.tree


def _plain_attribute(name: str) -> bool:
    """An attribute name ``getattr`` may take as a literal: not autograd's, private, an escape or a frame's."""
    return name.isidentifier() and not name.startswith("_") and name not in AUTOGRAD and "backward" not in name \
        and name not in ESCAPES and name not in FRAME_ATTRIBUTES


def _bindings(node: ast.AST, name: str) -> int:
    """How often ``name`` is bound in ``node``, in any of the ways Python binds a name."""
    return _bound_counts(node)[name]


# calls that make a type an annotation may name (``T = TypeVar("T")``, ``LinearFlops = namedtuple(...)``)
TYPE_FACTORIES = frozenset(["TypeVar", "NewType", "ParamSpec", "TypeVarTuple", "namedtuple", "NamedTuple",
                            "TypedDict", "make_dataclass", "type", "Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"])


def computed_annotation(mod: Module, annotation: ast.expr, modules: dict[str, Module], depth: int = 0,
                        scope: dict[str, str] | None = None) -> str | None:
    """The first name in ``annotation`` bound to what no reading can read as a type: a string built at run
    time (``S = "".join(parts)``, then ``def f(x: S)``), anything but a type's name, a written string or
    subscript, or a call that makes a type (``TYPE_FACTORIES``). Whatever evaluates annotations
    (``typing.get_type_hints``, a type checker, ``functools.singledispatch``) evaluates a string there as
    code: a written one is read (``code_in_string``), a built one cannot be. ``modules``: the
    implementation's own, for names taken from them (``from ._types import Tokens``). ``scope``: the
    locals of the function the annotation is written in (a parameter named there holds what any caller
    passes: charged, unless a local import or alias names it). None: all plain."""
    if depth > 4:
        return ast.unparse(annotation)[:60]
    for node in walk(annotation):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and isinstance(mod.final.get(node.value.id), ast.ClassDef):  # `Axes.Tokens`: the class's binding
            values = _bound_values(mod.final[node.value.id].body, node.attr)
            name = f"{node.value.id}.{node.attr}"
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and scope and node.id in scope:
            if not scope[node.id]:  # `def probe(arg: text)` in a function whose `text` is its parameter
                return node.id
            continue
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            name = node.id
            imported = mod.imports.get(name, "")
            own = imported.lstrip(".").split(".")
            if imported.startswith(".") or own[0] == "assignment" or (own[0] in modules and len(own) == 2):
                other = modules.get(own[-2]) if len(own) >= 2 else None
                found = computed_annotation(other, ast.Name(own[-1], ast.Load()), modules, depth + 1) \
                    if other is not None and other is not mod else None
                if found:
                    return f"{name}, from {own[-2]}.py"
                continue
            if imported or name not in mod.bindings or isinstance(mod.final.get(name), (ast.FunctionDef,
                                                                                      ast.AsyncFunctionDef,
                                                                                      ast.ClassDef)):
                continue
            values = _bound_values(mod.tree.body, name)
        else:
            continue
        for value in values:
            if value is None or not _type_like(mod, value):
                return name
            if not isinstance(value, ast.Constant) and computed_annotation(mod, _typed_part(mod, value), modules,
                                                                           depth + 1):
                return name
    return None


def annotation_strings(mod: Module, annotation: ast.expr, modules: dict[str, Module], depth: int = 0
                       ) -> Iterator[ast.expr]:
    """The strings bound to the names of ``annotation`` (``_S = "..."``, then ``def f(x: _S)``; through
    aliases and the implementation's other modules), parsed as the expressions what evaluates annotations
    evaluates them as, at the annotation's line. Strings that are no expression are skipped: typing
    refuses them, running nothing."""
    if depth > 4:
        return
    for node in walk(annotation):
        if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)):
            continue
        imported = mod.imports.get(node.id, "")
        own = imported.lstrip(".").split(".")
        if imported and (imported.startswith(".") or own[0] == "assignment" or own[0] in modules) and len(own) >= 2:
            other = modules.get(own[-2])
            if other is not None and other is not mod:
                for text in annotation_strings(other, ast.Name(own[-1], ast.Load()), modules, depth + 1):
                    ast.increment_lineno(text, getattr(annotation, "lineno", 1) - text.lineno)
                    yield text
            continue
        if imported or node.id not in mod.bindings:
            continue
        for value in _bound_values(mod.tree.body, node.id):
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                try:
                    parsed = _parse_expression(value.value.strip())
                except SyntaxError:
                    continue
                ast.increment_lineno(parsed, getattr(annotation, "lineno", 1) - 1)
                yield parsed
            elif value is not None and not isinstance(value, ast.Constant):
                yield from annotation_strings(mod, value, modules, depth + 1)


# generics whose metadata after the type is any value, evaluated at once and never as a type
ANNOTATED = frozenset(["typing.Annotated", "typing_extensions.Annotated"])


def _type_like(mod: Module, value: ast.expr) -> bool:
    """Whether what a name is bound to reads as a type: names, strings (read as code where an annotation
    names them, ``annotation_strings``), subscripts and unions of such, a call that makes a type
    (``TYPE_FACTORIES``); ``Annotated[T, anything]``'s metadata is a value, not a type."""
    value = _typed_part(mod, value)
    if isinstance(value, ast.Subscript):
        return _type_like(mod, value.value) and all(_type_like(mod, e) for e in (
            value.slice.elts if isinstance(value.slice, ast.Tuple) else [value.slice]))
    if isinstance(value, (ast.Tuple, ast.List)):
        return all(_type_like(mod, e) for e in value.elts)
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.BitOr):
        return _type_like(mod, value.left) and _type_like(mod, value.right)
    if isinstance(value, ast.Attribute) and value.attr.startswith("__"):  # `f.__doc__`: any text
        return False
    return isinstance(value, (ast.Name, ast.Attribute, ast.Constant)) or _makes_type(mod, value)


def _typed_part(mod: Module, value: ast.expr) -> ast.expr:
    """``Annotated[T, metadata]`` as ``T``; anything else as it is."""
    if isinstance(value, ast.Subscript) and (mod.resolve(value.value) or "") in ANNOTATED \
            and isinstance(value.slice, ast.Tuple) and value.slice.elts:
        return value.slice.elts[0]
    return value


def _makes_type(mod: Module, value: ast.expr) -> bool:
    return isinstance(value, ast.Call) and (mod.resolve(value.func) or "").split(".")[-1] in TYPE_FACTORIES


def _bound_values(body: list[ast.stmt], name: str) -> list[ast.expr | None]:
    """What each statement of ``body`` (not inside its functions or classes) binds ``name`` to: the assigned
    expression, or None where it is no expression written there (a loop, a ``+=``, a walrus, ``with``)."""
    values: list[ast.expr | None] = []
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Assign):
            values += [v for target in node.targets for n, v in _assigned(target, node.value) if n == name]
            todo.append(node.value)
        elif isinstance(node, ast.AnnAssign):
            if isinstance(node.target, ast.Name) and node.target.id == name and node.value is not None:
                values.append(node.value)
            todo += [node.value] if node.value is not None else []
        elif isinstance(node, ast.Name):
            if name in _binds(node):  # a loop's target, a `+=`, a walrus, `with ... as`
                values.append(None)
        elif not isinstance(node, (ast.Import, ast.ImportFrom)):
            values += [None] * (name in _binds(node))
            todo.extend(ast.iter_child_nodes(node))
    return values


def _annotation_nodes(tree: ast.Module) -> set[int]:
    """Every node inside an annotation of the module; counted once per module and kept on its tree."""
    known = getattr(tree, "_annotation_nodes", None)
    if known is None:
        known = tree._annotation_nodes = {id(inner) for a in _annotations_of(tree) for inner in walk(a)}
    return known


def _annotation_roots(tree: ast.Module) -> set[int]:
    """Every annotation of the module, as a whole; counted once per module and kept on its tree."""
    known = getattr(tree, "_annotation_roots", None)
    if known is None:
        known = tree._annotation_roots = {id(a) for a in _annotations_of(tree)}
    return known


def _annotations_of(tree: ast.AST) -> list[ast.expr]:
    """Every annotation in ``tree``: a parameter's, a function's return, an annotated assignment's."""
    found: list[ast.expr] = []
    for node in walk(tree):
        if isinstance(node, ast.arg) and node.annotation is not None:
            found.append(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            found.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
    return found


def _naming_annotations(tree: ast.Module) -> set[int]:
    """Every node inside an annotation of the module that only names things (``_names_only``); counted
    once per module and kept on its tree."""
    known = getattr(tree, "_naming_annotations", None)
    if known is None:
        known = tree._naming_annotations = {id(inner) for a in _annotations_of(tree) if _names_only(a)
                                            for inner in walk(a)}
    return known


# what a store swaps the code of a function or class for (``f.__code__ = g.__code__``, ``C.__bases__ = ...``):
# the reading reads the def as written, and something else runs
CODE_ATTRIBUTES = frozenset(["__code__", "__bases__", "__class__", "__dict__", "__defaults__", "__kwdefaults__",
                             "__globals__", "__closure__", "__call__", "__wrapped__", "__get__", "__getattr__",
                             "__getattribute__", "__mro_entries__", "__init_subclass__", "__class_getitem__"])
# what copies a function's attributes onto another by the names it is given (its positional arguments past the
# two or one that are plain use, `functools.wraps(fn)`): told `assigned=("__code__",)`, it swaps the code
WRAPPERS = {"functools.update_wrapper": 2, "functools.wraps": 1}
# what may set a module's attribute by a name built at run time, or reach the module objects to set one on
SETTERS = frozenset(["setattr", "__setattr__", "__getattribute__", "__dict__", "vars", "globals", "locals",
                     "modules", "exec", "eval", "compile", "__import__", "import_module", "reload", "__builtins__",
                     "f_globals", "f_locals", "__globals__"])


# attributes that lead from an object to namespaces the source does not name (a function's globals, a
# module's dict, every subclass): ``torch.__version__`` or ``int.__mul__`` do not
REACHING_DUNDERS = CODE_ATTRIBUTES | frozenset([
    "__builtins__", "__globals__", "__subclasses__", "__mro__", "__base__", "__loader__", "__spec__", "__import__",
    "__self__", "__func__", "__reduce__", "__reduce_ex__", "__getattribute__", "__getstate__", "__objclass__",
    "__annotations__"])  # a string stored there is code to what evaluates annotations


def _may_set(tree: ast.Module, attr: str) -> bool:
    """Whether code of this module may set an attribute ``attr`` of some module (its own ``__name__``,
    ``typing.TYPE_CHECKING``): a store to ``x.attr``, however ``x`` is reached (for ``__name__``, but the
    decorator's ``inner.__name__ = fn.__name__``); the name as a string (``setattr(m, "__name__", ...)``,
    a ``__dict__`` key) or a keyword; for ``__name__``, anything named ``__main__``; any of ``SETTERS``,
    however imported; a ``getattr`` of one of them, or of a name built at run time (``getattr(torch,
    "finfo")`` reads an attribute, and sets none)."""
    main_tests = {id(side) for node in walk(tree) if isinstance(node, ast.Compare) and len(node.comparators) == 1
                  for side in (node.left, node.comparators[0])
                  if {ast.unparse(node.left), ast.unparse(node.comparators[0])} == {"__name__", "'__main__'"}}
    # the targets of `x.__name__ = y.__name__`: a name copied (a decorator's), not one set
    copies = {id(target) for node in walk(tree) if isinstance(node, ast.Assign)
              and isinstance(node.value, ast.Attribute) and node.value.attr == "__name__" for target in node.targets}
    regex = _plain_regex(tree)
    for node in walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in SETTERS \
                and not (regex and ast.unparse(node) in PLAIN_NAMES):  # `re.compile` sets nothing
            return True
        if isinstance(node, ast.Attribute) and node.attr == attr and not isinstance(node.ctx, ast.Load) \
                and not (attr == "__name__" and id(node) in copies):
            return True
        if isinstance(node, ast.Name) and (node.id in SETTERS or (attr == "__name__" and node.id == "__main__")):
            return True
        if isinstance(node, ast.alias) and (node.name.split(".")[-1] in SETTERS or node.name == "__main__"):
            return True
        if (isinstance(node, ast.Constant) and id(node) not in main_tests
                and node.value in (attr, "__main__" if attr == "__name__" else attr)) \
                or (isinstance(node, ast.keyword) and node.arg == attr):
            return True
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name == "__main__":
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" and (
                len(node.args) < 2 or not isinstance(node.args[1], ast.Constant)
                or node.args[1].value in SETTERS or node.args[1].value == attr):
            return True
    return False


def _head(node: ast.expr) -> str:
    """The name a dotted expression starts from (``typing`` of ``typing.TYPE_CHECKING``)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else ""


def _bound_counts(node: ast.AST) -> collections.Counter:
    """How often each name is bound in ``node`` (counted once per node and kept on it: the ownership
    reading asks of every name read in a function)."""
    counts = getattr(node, "_bound_names", None)
    if counts is None:
        counts = collections.Counter(bound for inner in walk(node) for bound in _binds(inner))
        node._bound_names = counts
    return counts


# autograd's switches, turned off: what `torch.no_grad()` (allowed) is, spelt through torch.autograd
TURNING_OFF = frozenset(["torch.autograd.no_grad", "torch.autograd.grad_mode.no_grad", "torch.autograd.inference_mode",
                         "torch.autograd.grad_mode.inference_mode"])
SWITCHES = frozenset(["torch.set_grad_enabled", "torch.autograd.set_grad_enabled",
                      "torch.autograd.grad_mode.set_grad_enabled"])


def _switches_off(mod: Module, root: ast.AST, scopes: dict[int, dict[str, str]]) -> set[int]:
    """The attribute nodes of ``root`` that only turn autograd off: ``torch.autograd.no_grad`` (the very
    object ``torch.no_grad`` is) and ``torch.set_grad_enabled(False)`` with a literal False, as
    ``requires_grad=False`` is; with the ``torch.autograd`` inside each."""
    off: set[int] = set()
    for node in walk(root):
        target = None
        if isinstance(node, ast.Attribute) and _imported(mod, node, scopes.get(id(node))) in TURNING_OFF:
            target = node
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and _imported(mod, node.func, scopes.get(id(node.func))) in SWITCHES and not node.keywords \
                and len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and node.args[0].value is False:
            target = node.func
        while isinstance(target, ast.Attribute):
            off.add(id(target))
            target = target.value
    return off


def _reads_flag(mod: Module, node: ast.Attribute, scopes: dict[int, dict[str, str]]) -> bool:
    """``t.requires_grad`` read (``t.detach() if t.requires_grad else t``): a flag's value, which runs
    nothing of autograd. Setting it (``t.requires_grad = True``) does, and so may the descriptor itself
    (``torch.Tensor.requires_grad``), which stays charged."""
    return node.attr == "requires_grad" and isinstance(node.ctx, ast.Load) \
        and (_imported(mod, node.value, scopes.get(id(node.value))) or "").split(".")[0] not in ("torch", "functorch")


def _patched(mod: Module, target: ast.expr, scopes: dict[int, dict[str, str]]) -> str | None:
    """What storing an attribute on ``target`` changes, if it changes code: a library (``torch.Tensor.by_hand
    = ...``: its dotted name), a module of the implementation (``gradients.linear_backward = ...`` in another
    module: ``.gradients``), or the class of an object (``type(x).f = ...``, ``x.__class__.f = ...``:
    ``"a class"``). A plain-looking call then runs other code than the reading saw."""
    for inner in walk(target):
        if isinstance(inner, ast.Attribute) and inner.attr == "__class__":
            return "a class"
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "type" \
                and mod.resolve(inner.func, scope=scopes.get(id(inner.func))) == "type":
            return "a class"
    return _imported(mod, target, scopes.get(id(target))) or None


def _class_datum(mod: Module, node: ast.Attribute, parents: dict[int, ast.AST]) -> bool:
    """``type(self).flops += n`` or ``self.__class__.flops = 0`` in a method of a class whose body binds
    ``flops`` to a constant: a count kept on the class, no code put in place of other code. (Called unbound
    on another object, ``self`` could be a library's; so the name is no dunder, none of a tensor's, and what
    is stored a sum or a constant: nothing a library runs.)"""
    value = node.value
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "type" \
            and len(value.args) == 1 and not value.keywords and mod.resolve(value.func) == "type":
        receiver = value.args[0]
    elif isinstance(value, ast.Attribute) and value.attr == "__class__":
        receiver = value.value
    else:
        return False
    cls = _receiver_classes(mod).get(id(receiver))
    statement = parents.get(id(node))
    if cls is None or node.attr.startswith("__") or hasattr(_tensor_class(), node.attr):
        return False
    if not (isinstance(statement, ast.AugAssign) and statement.target is node
            or isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Constant)):
        return False
    return any(isinstance(s, ast.Assign) and isinstance(s.value, ast.Constant)
               and any(isinstance(t, ast.Name) and t.id == node.attr for t in s.targets)
               or isinstance(s, ast.AnnAssign) and isinstance(s.value, ast.Constant)
               and isinstance(s.target, ast.Name) and s.target.id == node.attr for s in cls.body) \
        and not any(isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and s.name == node.attr
                    for s in cls.body)


@functools.cache
def _tensor_class() -> type:
    import torch

    return torch.Tensor


def _receiver_classes(mod: Module) -> dict[int, ast.ClassDef]:
    """The class of each ``self`` / ``cls`` Name that is a method's own first parameter (``_method_receivers``)."""
    found = mod.__dict__.get("_receiver_classes")
    if found is None:
        receivers = _method_receivers(mod)
        found = {}
        for cls in walk(mod.tree):
            if isinstance(cls, ast.ClassDef):
                for method in cls.body:
                    if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        found.update((id(n), cls) for n in walk(method) if id(n) in receivers)
        mod.__dict__["_receiver_classes"] = found
    return found


def _own_function(mod: Module, func: ast.expr, scopes: dict[int, dict[str, str]]) -> bool:
    """Whether a call's callee is a function the module itself defines, bound once (its keywords are
    its own parameters' names: ``grad=`` there passes a value), or ``dict`` (keywords become keys)."""
    if not isinstance(func, ast.Name) or func.id in (scopes.get(id(func)) or {}):
        return False
    if func.id == "dict":
        return func.id not in mod.final and func.id not in mod.imports
    return isinstance(mod.final.get(func.id), (ast.FunctionDef, ast.AsyncFunctionDef)) \
        and _bindings(mod.tree, func.id) == 1


def _on_the_way_to(mod: Module, node: ast.AST, parents: dict[int, ast.AST], scopes: dict, names) -> bool:
    """Whether ``node`` is the module on the way to one of ``names`` (``importlib`` of
    ``importlib.metadata.version``): the dotted name it starts resolves to one of them."""
    top = node
    while isinstance(parents.get(id(top)), ast.Attribute) and parents[id(top)].value is top:
        top = parents[id(top)]
    return top is not node and _imported(mod, top, scopes.get(id(top))) in names


def _own_namespace(mod: Module, node: ast.Name, parents: dict[int, ast.AST]) -> bool:
    """``vars(self)`` or ``dir(self)`` in a method of the submission's own class (a ``__repr__`` showing its
    fields), the builtin called on the method's own ``self``: what the class stored on itself, every store of
    which the source shows."""
    call = parents.get(id(node))
    return node.id in ("vars", "dir") and _bound_counts(mod.tree)[node.id] == 0 and not mod.stars \
        and isinstance(call, ast.Call) and call.func is node and len(call.args) == 1 and not call.keywords \
        and _self(mod, call.args[0])


def _self(mod: Module, value: ast.expr) -> bool:
    """Whether ``value`` is a method's own ``self`` / ``cls`` (``_method_receivers``): a local merely named so
    (``self = torch.utils``) is whatever it was bound to."""
    return id(value) in _method_receivers(mod)


def _own_object(value: ast.expr, own: Own) -> bool:
    """Whether ``value``'s attributes are the submission's own code, read where it is defined: a plain
    class of its own, an instance made by calling one (``Grads(grad=g).grad``), a local bound to one
    (``op = MatMul(x, w)``), ``self`` in a method of one, or one of its own modules. (See ``Own``.)"""
    if isinstance(value, ast.Call):  # `Grads(grad=g).grad`, `_with_grad(x).grad` (``_Owner._factories``)
        return id(value.func) in own.classes or id(value.func) in own.factories
    return id(value) in own.classes or id(value) in own.objects


@dataclass(frozen=True)
class Own:
    """What of a module is the submission's own: nodes by ``id``. Its attributes are read where they
    are defined, never charged for their names (``MatMul(x, w).backward``, ``self.grad``,
    ``ops.dot_backward``). Only where nothing else can be bound to the name (see ``_ownership``)."""

    classes: frozenset[int] = frozenset()  # names of its plain classes: their calls make instances
    objects: frozenset[int] = frozenset()  # instances: a local bound to one, a method's self
    module_attributes: frozenset[int] = frozenset()  # `ops.dot_backward`: a name its own module binds
    factories: frozenset[int] = frozenset()  # names of its functions that return only such instances
    # public names of its plain classes' methods other than autograd's own (`save_for_backward` of a hand-written
    # context): an attribute of that name on what no reading can name (a parameter `ctx`) is read as its own
    method_names: frozenset[str] = frozenset()


# what a plain class may derive from: nothing that makes its instances tensors or looks names up anew
PLAIN_BASES = frozenset(["object", "abc.ABC", "typing.Generic", "typing.Protocol", "typing.NamedTuple"])
# decorators that hand back the class (or method) they are given
CLASS_DECORATORS = frozenset(["dataclasses.dataclass", "functools.total_ordering"])
METHOD_DECORATORS = frozenset(["property", "functools.cached_property", "abc.abstractmethod", "classmethod"])
# what makes an instance anything but one: a constructor of its own, a name lookup of its own
RESHAPING = frozenset(["__new__", "__getattr__", "__getattribute__"])
IMPLICIT_CLASSMETHODS = frozenset(["__init_subclass__", "__class_getitem__"])


def _ownership(parsed: dict[str, Module], sources: dict[str, str]) -> dict[str, Own]:
    """Each module's ``Own``. A plain class (``_Owner.plain``) is its own where the name is nothing else
    in its scope; a local bound once, unconditionally, to an instance of one is too; and so is the
    first parameter of a method of one, unless the method may be called with any first argument (an
    attribute of its name read off what may be a class: ``Op.track(w)``, ``type(op).track``; off anything
    at all where a class may be held by a value; a string that may name it) or the class may be a base
    of something else (its name used but to call it, read its attributes, annotate, or derive a plain
    class of its own; named in another module)."""
    patched = {node.attr for mod in parsed.values() for node in walk(mod.tree)
               if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load)}
    owners = {name: _Owner(mod, patched, parsed, sources) for name, mod in parsed.items()}
    for owner in owners.values():  # `from .ops import MatMul`, `ops.MatMul(x, w)`, `from .ops import rule`
        owner.adopt(owners, patched, sources)
    named = {name: _identifiers(mod.tree) for name, mod in parsed.items()}
    strings = {node.value for mod in parsed.values() for node in walk(mod.tree)
               if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    for name, owner in owners.items():
        elsewhere = set().union(*[named[other] for other in parsed if other != name])
        owner.methods = [m for m in owner.methods if owner.sealed(m[0], elsewhere)]
    anywhere = any(owner.escapes() for owner in owners.values())
    while True:  # a method called on an own instance (`self.m()` in a method whose self is own) is bound
        unbound = strings.union(*[owner.unbound(anywhere) for owner in owners.values()])
        before = sum(len(owner.methods) for owner in owners.values())
        for owner in owners.values():
            owner.methods = [m for m in owner.methods if m[2] or m[1].name not in unbound]
        if sum(len(owner.methods) for owner in owners.values()) == before:
            break
    return {name: owner.own() for name, owner in owners.items()}


class _Owner:
    """One module's reading for ``_ownership``."""

    def __init__(self, mod: Module, patched: set[str], parsed: dict[str, Module], sources: dict[str, str]):
        self.mod = mod
        self.patched = patched
        self.parents = _parents(mod)
        self.bound = _bound_counts(mod.tree)
        self.plain = self._plain_classes(patched)
        loads = [n for n in walk(mod.tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
        self.classes = {id(n): n for n in loads if n.id in self.plain and not self._shadowed(n)}
        self.made = self._factories(patched)
        self.factories = {id(n) for n in loads if n.id in self.made and not self._shadowed(n)}
        self.instances = {i for fn in walk(mod.tree) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
                          for i in self._instance_locals(fn)}
        # (class, method, is a classmethod, its first parameter's reads): candidates for an own `self`
        self.methods = [(cls, method, classmethod, self._reads_in(method, param))
                        for cls in self.plain.values() for method, param, classmethod in self._methods(cls)]
        self.modules = {id(n): module for n in loads if not self._shadowed(n)
                        for module in [self._own_module(n, patched, parsed, sources)] if module}
        self.module_attributes = set()
        for node in walk(mod.tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) \
                    and id(node.value.value) in self.modules and self.modules[id(node.value.value)] == PACKAGE \
                    and node.value.attr in parsed and _submodule(node.value.attr, parsed) \
                    and node.value.attr not in patched:
                self.modules[id(node.value)] = node.value.attr  # `assignment._ops`, `import assignment._ops`
        for node in walk(mod.tree):
            if isinstance(node, ast.Attribute) and id(node.value) in self.modules and node.attr not in patched:
                other = parsed.get(self.modules[id(node.value)])
                if id(node) in self.modules or other is not None and (
                        node.attr in other.final or node.attr in other.functions or node.attr in other.classes):
                    self.module_attributes.add(id(node))

    def module_instances(self) -> set[str]:
        """The module's names bound once, at the top level, to an instance of a plain class of its own
        (``RULE = _MatMulRule()``), rebound by no one."""
        return {name for name, node in self.mod.final.items() if isinstance(node, ast.Call)
                and (id(node.func) in self.classes or id(node.func) in self.factories)
                and self.bound.get(name) == 1 and name not in self.mod.declared_global and name not in self.patched}

    def adopt(self, owners: dict[str, "_Owner"], patched: set[str], sources: dict[str, str]) -> None:
        """Take as the module's own what it takes from its own other modules: their plain classes and
        instances (``from .ops import MatMul``, ``ops.MatMul(x, w)``, ``ops.RULE``), and its own module-level
        instances: their attributes are the classes' code, read where defined."""
        loads = [n for n in walk(self.mod.tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                 and not self._shadowed(n)]
        classes, instances, foreign_factories = dict(self.classes), set(), set()
        for n in loads:
            statement = self.mod.final.get(n.id)
            if not isinstance(statement, ast.ImportFrom) or self.bound.get(n.id) != 1 or n.id in patched:
                continue
            for other, used in _own(self.mod.imports.get(n.id, ""), sources, first_only=True):
                owner = owners.get(other)
                if owner is None or owner is self or used is None or used in patched:
                    continue
                if used in owner.plain:
                    classes[id(n)] = n
                elif used in owner.made:  # `make_loss(t)`: a function that makes only such instances
                    foreign_factories.add(id(n))
                elif used in owner.module_instances():
                    instances.add(n.id)
        for node in walk(self.mod.tree):
            owner = owners.get(self.modules.get(id(node.value), "")) if isinstance(node, ast.Attribute) else None
            if owner is not None and owner is not self and id(node) in self.module_attributes:
                if node.attr in owner.plain:
                    classes[id(node)] = node
                elif node.attr in owner.made:
                    foreign_factories.add(id(node))
                elif node.attr in owner.module_instances():
                    self.instances.add(id(node))
        self.classes = classes
        self.made = self._factories(patched)
        self.factories = {id(n) for n in loads if n.id in self.made} | foreign_factories
        instances |= self.module_instances()  # `_mm = MatMul()`, of a class of its own or taken from another
        self.instances |= {id(n) for n in loads if n.id in instances}
        functions = [fn for fn in walk(self.mod.tree) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))]
        self.instances |= {i for fn in functions for i in self._instance_locals(fn)}

    def own(self) -> Own:
        selves = {i for _, _, classmethod, reads in self.methods if not classmethod for i in reads}
        clses = {i for _, _, classmethod, reads in self.methods if classmethod for i in reads}
        names = {method.name for _, method, _, _ in self.methods
                 if not method.name.startswith("_") and method.name not in AUTOGRAD}
        return Own(frozenset(self.classes) | frozenset(clses), frozenset(self.instances | selves),
                   frozenset(self.module_attributes), frozenset(self.factories), frozenset(names))

    def _factories(self, patched: set[str]) -> set[str]:
        """The module's functions whose every ``return`` hands back a new instance of a plain class of its
        own (``return Grads(value=v, grad=g)``): bound once, undecorated, patched by no one, no generator."""
        made = set()
        for name, function in self.mod.functions.items():
            if self.bound.get(name) != 1 or name in patched or function.decorator_list \
                    or not isinstance(function, ast.FunctionDef):
                continue
            returns, others = [], False
            todo = list(function.body)
            while todo:
                node = todo.pop()
                if isinstance(node, ast.Return):
                    returns.append(node)
                if isinstance(node, (ast.Yield, ast.YieldFrom)):
                    others = True
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                    todo.extend(ast.iter_child_nodes(node))
            if returns and not others and all(isinstance(r.value, ast.Call) and id(r.value.func) in self.classes
                                              for r in returns):
                made.add(name)
        return made

    # -- plain classes ---------------------------------------------------------------------------
    def _plain_classes(self, patched: set[str]) -> dict[str, ast.ClassDef]:
        """The module's classes whose calls make plain instances of them: bound once, at the top level,
        patched by no one, no metaclass, decorators that hand the class back, no ``RESHAPING`` methods,
        bases from ``PLAIN_BASES``, the builtin exceptions or other such classes of its own."""
        mod = self.mod
        stars = [n.lineno for n in walk(mod.tree) if isinstance(n, ast.ImportFrom) and n.names[0].name == "*"]
        plain = {name: node for name, node in mod.final.items() if isinstance(node, ast.ClassDef)
                 and self.bound.get(name) == 1 and name not in patched and not node.keywords
                 and all(mod.resolve(d.func if isinstance(d, ast.Call) else d) in CLASS_DECORATORS
                         for d in node.decorator_list)
                 and not (RESHAPING & {b for part in node.body for b in _binds(part)})
                 and not any(line > node.lineno for line in stars)}  # a star import may bind it again
        while True:
            kept = {name: node for name, node in plain.items()
                    if all(self._plain_base(base, plain, bool(stars)) for base in node.bases)}
            if len(kept) == len(plain):
                return kept
            plain = kept

    def _plain_base(self, base: ast.expr, plain: dict[str, ast.ClassDef], stars: bool) -> bool:
        base = base.value if isinstance(base, ast.Subscript) else base
        if isinstance(base, ast.Name) and base.id in plain:
            return True
        resolved = self.mod.resolve(base) or ""
        if resolved in PLAIN_BASES and resolved != "object":
            return True
        if not isinstance(base, ast.Name) or self.bound.get(base.id) or stars:
            return False
        builtin = getattr(builtins, base.id, None)  # `object`, `ValueError`: nothing binds the name anew
        return builtin is object or (isinstance(builtin, type) and issubclass(builtin, BaseException))

    def _shadowed(self, name: ast.Name) -> bool:
        """Whether ``name`` may be a local of an enclosing function, class body or comprehension rather
        than the module's (any binding of it there counts)."""
        child, node = name, self.parents.get(id(name))
        in_function = False
        while node is not None:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and child in node.body \
                    or isinstance(node, ast.Lambda) and child is node.body:
                in_function = True
                if _bindings(node, name.id):
                    return True
            elif isinstance(node, ast.ClassDef) and child in node.body and not in_function:
                if any(name.id in _binds(inner) for part in node.body for inner in _same_scope(part)):
                    return True
            elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)) \
                    and _bindings(node, name.id):
                return True
            child, node = node, self.parents.get(id(node))
        return False

    # -- instances -------------------------------------------------------------------------------
    def _instance_locals(self, function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[int]:
        """Reads of a local the function binds once, unconditionally (a statement of its body), to a
        call of a plain class of the module's own, or of a function that makes only such instances:
        ``op = MatMul(x, w)``."""
        reads = []
        for statement in function.body:
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
                    and isinstance(statement.targets[0], ast.Name) and isinstance(statement.value, ast.Call) \
                    and (id(statement.value.func) in self.classes or id(statement.value.func) in self.factories) \
                    and _bindings(function, statement.targets[0].id) == 1:
                reads += self._reads_in(function, statement.targets[0].id)
        return reads

    def _reads_in(self, function: ast.AST, name: str) -> list[int]:
        """``name`` read in ``function``'s own scope (a nested function or class is another scope)."""
        reads, todo = [], list(function.body)
        while todo:
            node = todo.pop()
            if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
                reads.append(id(node))
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                todo.extend(ast.iter_child_nodes(node))
        return reads

    def _methods(self, cls: ast.ClassDef) -> Iterator[tuple[ast.FunctionDef, str, bool]]:
        """(method, its first parameter, whether a classmethod) of the class's methods whose first
        parameter is the instance (or the class) whenever it is called through one, bound nowhere else."""
        for method in cls.body:
            if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            decorators = [self.mod.resolve(d) or "" for d in method.decorator_list]
            setters = all(isinstance(d, ast.Attribute) and d.attr in ("setter", "getter", "deleter")
                          and isinstance(d.value, ast.Name) for d in method.decorator_list)
            params = [*method.args.posonlyargs, *method.args.args]
            if params and (setters or all(d in METHOD_DECORATORS for d in decorators)) \
                    and _bindings(method, params[0].arg) == 1:
                # (`__init_subclass__` and `__class_getitem__` take the class without saying so)
                yield method, params[0].arg, "classmethod" in decorators or method.name in IMPLICIT_CLASSMETHODS

    def sealed(self, cls: ast.ClassDef, elsewhere: set[str], depth: int = 0) -> bool:
        """Whether the class is never anything's base but plain classes of the module's own: its name
        is only called, has attributes read, annotates, is a checked type or a plain class's base (one
        sealed too), and no other module names it."""
        if cls.name in elsewhere or depth > 8:
            return False
        for node in self.classes.values():
            if not isinstance(node, ast.Name) or node.id != cls.name:  # (`ops.MatMul`: another module's class)
                continue
            parent = self.parents.get(id(node))
            if isinstance(parent, ast.Call) and (node is parent.func or self.mod.resolve(parent.func) in (
                    "isinstance", "issubclass") and node in parent.args) \
                    or isinstance(parent, ast.Attribute) or self._annotation(node) \
                    or isinstance(parent, (ast.ExceptHandler, ast.Raise)):
                continue
            if isinstance(parent, ast.ClassDef) and node in parent.bases and self.plain.get(parent.name) is parent \
                    and self.sealed(parent, elsewhere, depth + 1):
                continue
            return False
        return True

    def _annotation(self, node: ast.AST) -> bool:
        child, parent = node, self.parents.get(id(node))
        while parent is not None and not isinstance(parent, ast.stmt):
            if isinstance(parent, ast.arg) and child is parent.annotation:
                return True
            child, parent = parent, self.parents.get(id(parent))
        return isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and child is parent.returns \
            or isinstance(parent, ast.AnnAssign) and child is parent.annotation

    def unbound(self, anywhere: bool) -> set[str]:
        """Attribute names read off what may be a class (``Op.track``, ``cls.track``, ``type(op).track``,
        ``op.__class__.track``): a method of that name may be called with any first argument. ``anywhere``:
        a class may be held by any value (``escapes``), so off anything not known to be an instance."""
        selves = {i for _, _, classmethod, reads in self.methods if not classmethod for i in reads}
        clses = {i for _, _, classmethod, reads in self.methods if classmethod for i in reads}
        names = set()
        for node in walk(self.mod.tree):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                value = node.value
                instance = id(value) in self.instances or id(value) in selves or isinstance(value, ast.Call) and (
                    id(value.func) in self.classes
                    or self.mod.resolve(value.func) == "super" and not value.args and not value.keywords)
                if (anywhere and not instance) or id(value) in self.classes or id(value) in clses \
                        or self._class_of(value) or isinstance(value, ast.Call) and value.args \
                        and self.mod.resolve(value.func) == "super":
                    names.add(node.attr)
        # a method named in its class's own body (`make = leaf`, `go = staticmethod(fire)`) is bound under
        # another name, which a reading of attribute names does not follow: it may be called any way
        for cls in self.plain.values():
            methods = {m.name for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
            for part in cls.body:
                if not isinstance(part, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.update(n.id for n in walk(part) if isinstance(n, ast.Name) and n.id in methods)
                else:
                    names.update(n.id for d in part.decorator_list for n in walk(d)
                                 if isinstance(n, ast.Name) and n.id in methods)
        return names

    def _class_of(self, node: ast.AST) -> bool:
        """``type(x)`` or ``x.__class__``: an object's class."""
        return isinstance(node, ast.Attribute) and node.attr == "__class__" or isinstance(node, ast.Call) \
            and len(node.args) == 1 and not node.keywords and self.mod.resolve(node.func) == "type"

    def escapes(self) -> bool:
        """Whether a class may end up held by a value: an object's class (``type(x)``, ``x.__class__``,
        ``cls`` of a classmethod, ``C.mro()``) used but to read an attribute off, to name or to compare."""
        clses = {i for _, _, classmethod, reads in self.methods if classmethod for i in reads}
        for node in walk(self.mod.tree):
            if isinstance(node, ast.Attribute) and node.attr == "mro":
                return True
            if not (self._class_of(node) or id(node) in clses):
                continue
            parent = self.parents.get(id(node))
            if isinstance(parent, ast.Attribute) and isinstance(parent.ctx, ast.Load) \
                    or isinstance(parent, ast.Compare) or isinstance(parent, ast.Call) and (node is parent.func or self.mod.resolve(parent.func) in (
                        "isinstance", "issubclass")):
                continue
            return True
        return False

    # -- modules -----------------------------------------------------------------------------------
    def _own_module(self, name: ast.Name, patched: set[str], parsed: dict[str, Module],
                    sources: dict[str, str]) -> str | None:
        """The implementation's module a name stands for (``from assignment import _ops as ops``,
        ``import assignment``): bound once, by that import, to a module nothing rebinds."""
        statement = self.mod.final.get(name.id)
        if not isinstance(statement, (ast.Import, ast.ImportFrom)) or self.bound.get(name.id) != 1 \
                or name.id in patched:
            return None
        dotted = self.mod.imports.get(name.id, "")
        if dotted.strip(".") in ("", "assignment"):
            return PACKAGE
        module = next((m for m, used in _own(dotted, sources, first_only=True) if used is None), None)
        return module if module and module != PACKAGE and _submodule(module, parsed) else None


def _submodule(name: str, parsed: dict[str, Module]) -> bool:
    """Whether the package's attribute ``name`` is its module of that name: its ``__init__`` binds the
    name to nothing else (``from . import name``, or not at all)."""
    init = parsed.get(PACKAGE)
    if init is None:
        return True
    binding = [node for node in walk(init.tree) if name in _binds(node)]
    return all(isinstance(node, (ast.Import, ast.ImportFrom)) and init.imports.get(name, "").strip(".") in (
        name, f"assignment.{name}") for node in binding) and len(binding) <= 1


def _binds(node: ast.AST) -> list[str]:
    """The names ``node`` itself binds, in any of the ways Python binds a name."""
    if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
        return [node.id]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name.split(".")[0]) for a in node.names]
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return list(node.names) * 2  # bound elsewhere too
    if isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
        return [node.name]
    if isinstance(node, ast.MatchMapping) and node.rest:
        return [node.rest]
    return []


def _same_scope(node: ast.AST) -> Iterator[ast.AST]:
    """``node`` and what it holds in the same scope (not a nested function's or class's body)."""
    todo = [node]
    while todo:
        inner = todo.pop()
        yield inner
        if inner is node or not isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(inner))


def _identifiers(tree: ast.AST) -> set[str]:
    """Every name a module writes: names, attributes, imported names."""
    names = set()
    for node in walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.alias):
            names.update([node.name.split(".")[-1], node.asname or ""])
    return names


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
                parsed = _parse_expression(annotation.value.strip())
            except SyntaxError:
                continue
            ast.increment_lineno(parsed, annotation.lineno - 1)
            yield parsed


def _class_body_methods(tree: ast.Module) -> set[int]:
    """Names in class bodies (outside their functions) that name a method the class defines
    (``__str__ = __repr__``): the class's own, not the module's dunders."""
    known = getattr(tree, "_class_body_methods", None)
    if known is None:
        known = set()
        for cls in walk(tree):
            if not isinstance(cls, ast.ClassDef):
                continue
            methods = {m.name for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
            todo = [part for part in cls.body if not isinstance(part, (ast.FunctionDef, ast.AsyncFunctionDef))]
            while todo:
                node = todo.pop()
                if isinstance(node, ast.Name) and node.id in methods:
                    known.add(id(node))
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                    todo.extend(ast.iter_child_nodes(node))
        tree._class_body_methods = known
    return known


def _docstrings(tree: ast.Module) -> set[int]:
    """The docstrings of a module, its classes and functions; counted once per module, kept on its tree."""
    known = getattr(tree, "_docstrings", None)
    if known is None:
        known = tree._docstrings = {
            id(node.body[0].value) for node in walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
            and isinstance(node.body[0].value.value, str)}
    return known


def format_fields(text: str) -> list[str]:
    """The attributes and keys a format string reads off its arguments (``"{0.grad}".format(w)`` reads
    ``w.grad``, ``"{w[grad]}"`` ``w["grad"]``): ``str.format`` looks them up as it runs, those of a field
    nested in another's format spec too (``"{0:{1.grad}}"``: the inner field is looked up, and its text
    handed to the outer value's ``__format__``, which may return it)."""
    import string

    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:
        return []
    parts = [part for _, field, _, _ in parsed if field for part in re.split(r"[.\[\]]", field)[1:] if part]
    for _, _, spec, _ in parsed:
        if spec and "{" in spec:  # (Python nests one level deep: the spec's own fields)
            parts += format_fields(spec)
    return parts


# a jaxtyping dimension that is a name or a size (after its prefixes: # broadcast, * many, _ anonymous,
# ? tree path, name=): anything else jaxtyping evaluates, as an f-string and then as an expression
_PLAIN_DIMENSION = re.compile(r"(?:\.\.\.|(?:[#*_?]|[A-Za-z_]\w*=)*(?:[A-Za-z_]\w*|\d+)?)", re.ASCII)


# what a jaxtyping type's first argument is: a shape follows it (``K[torch.Tensor, dims]``, whatever K is)
ARRAY_TYPES = frozenset(["torch.Tensor", "numpy.ndarray", "torch.nn.Parameter", "torch.nn.parameter.Parameter"])


def _jaxtyping_dims(mod: Module, node: ast.Subscript, scopes: dict[int, dict[str, str]], found: list[Finding],
                    where: str) -> Iterator[ast.expr]:
    """The dimensions of a shape (``Float[Tensor, "n d-1"]``, any ``X[Tensor, "..."]``) that jaxtyping evaluates
    as code, parsed (``d-1``), to be read as code. One that no reading can parse (braces make an f-string
    of it: ``{exec(code)}``), or a shape of a jaxtyping type not written as a string, is a finding."""
    if not (isinstance(node.slice, ast.Tuple) and len(node.slice.elts) >= 2):
        return
    shape = node.slice.elts[1]
    if isinstance(shape, ast.Name) and isinstance(mod.final.get(shape.id), ast.Constant) \
            and _bound_counts(mod.tree)[shape.id] == 1:
        shape = mod.final[shape.id]  # `DIMS = "b s m"`, bound once
    typed = _imported(mod, node.value, scopes.get(id(node.value))) or ""
    # what no reading can name (a parameter, a table's entry) subscripted with an array type first
    array = (mod.resolve(node.slice.elts[0], scope=scopes.get(id(node))) or "") in ARRAY_TYPES \
        and not mod.resolve(node.value, scope=scopes.get(id(node.value)))
    if not (typed.startswith(("jaxtyping.", ".")) or array):
        return  # `SHEET["A100", "80GB"]`, `Literal["cpu", "cuda:0"]`: no shape of jaxtyping's
    if not (isinstance(shape, ast.Constant) and isinstance(shape.value, str)):
        if typed.startswith("jaxtyping.") or (typed.startswith(".") and not isinstance(shape, ast.Constant)) \
                or array:
            found.append(Finding(where, f"evaluates a jaxtyping shape made at run time ({ast.unparse(shape)[:60]}) "
                                        "as code", False))
        return
    for token in shape.value.split():
        if _PLAIN_DIMENSION.fullmatch(token):
            continue
        expression = token.lstrip("#*_?").split("=", 1)[-1]
        try:
            if any(c in expression for c in "{}'\"\\"):
                raise SyntaxError("an f-string's braces or quotes")
            parsed = _parse_expression(expression)
        except SyntaxError:
            found.append(Finding(where, f"evaluates the jaxtyping dimension {token[:60]!r} as code, which no "
                                        "reading can read", False))
            continue
        ast.increment_lineno(parsed, node.lineno - 1)
        yield parsed


def _a_base(node: ast.expr, parents: dict[int, ast.AST]) -> bool:
    """Whether ``node`` is a base of the class statement it is in (``class _Scale(Function):``): naming a base
    runs none of its code (the class's body is read as the code it is)."""
    parent = parents.get(id(node))
    return isinstance(parent, ast.ClassDef) and node in parent.bases


def _called(node: ast.expr, parents: dict[int, ast.AST]) -> bool:
    """Whether ``node`` is called where it is written (``pickle.loads(b)``, ``timeit.Timer(s).timeit()``)."""
    while isinstance(parents.get(id(node)), ast.Attribute):
        node = parents[id(node)]
    parent = parents.get(id(node))
    return isinstance(parent, ast.Call) and parent.func is node


def _jaxtyping_handed_on(imported: str, node: ast.expr, parents: dict[int, ast.AST]) -> bool:
    """Whether ``node``, jaxtyping or one of its array types (``Float``, ``Shaped``), is handed on as a value
    (``check(jaxtyping.Shaped, x, dims)``): subscripted elsewhere, a shape made at run time is evaluated as
    code where no reading sees it. Subscripting it in place, reading an attribute off the module and
    binding an alias (subscripted where it is used, and read there) are not."""
    last = imported.split(".")[-1]
    if not (imported == "jaxtyping" or imported.startswith("jaxtyping.") and imported.count(".") == 1
            and last[:1].isupper() and not last.endswith(("Error", "Warning"))):
        return False
    parent = parents.get(id(node))
    return not (isinstance(parent, (ast.Subscript, ast.Attribute)) and parent.value is node
                or isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is node)


# generics whose string arguments become forward references, which type checkers (typeguard's check_type,
# get_type_hints) evaluate as code; Literal's strings are values, Annotated's after the first metadata
GENERIC_MODULES = ("typing.", "typing_extensions.", "collections.abc.")
GENERIC_BUILTINS = frozenset(["list", "dict", "tuple", "set", "frozenset", "type"])


def _forward_references(mod: Module, node: ast.Subscript, scopes: dict[int, dict[str, str]]) -> Iterator[ast.expr]:
    """The strings of a generic's subscript (``typing.List["..."]``), parsed (at their line)."""
    generic = mod.resolve(node.value, scope=scopes.get(id(node.value))) or ""
    if not (generic.startswith(GENERIC_MODULES) or generic in GENERIC_BUILTINS) or generic.endswith(".Literal"):
        return
    items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    if generic.endswith(".Annotated"):
        items = items[:1]
    for item in items:
        if isinstance(item, ast.Constant) and isinstance(item.value, str):
            try:
                parsed = _parse_expression(item.value.strip())
            except SyntaxError:
                continue  # not an expression: no forward reference either (typing refuses it)
            ast.increment_lineno(parsed, item.lineno - 1)
            yield parsed


# the keywords that switch autograd on, looked for as a dict's keys too (``torch.zeros(n, **{"requires_grad": True})``)
AUTOGRAD_KEYWORDS = frozenset(["requires_grad"])


def _autograd_name(dotted: str) -> bool:
    return any(part in AUTOGRAD or (part.startswith("_") and part != "__future__") for part in dotted.split("."))


def _sibling_uses(mod: Module, root: ast.AST, sources: dict[str, str],
                  import_time: bool = False) -> Iterator[tuple[str, str | None]]:
    """(module, function or None) of the implementation's own modules that ``root`` uses; a name
    taken from the package itself (``from . import helper``) is the package ``__init__``'s.
    ``import_time``: an import statement that runs as a module is imported brings in that module (what
    importing it runs), not the names it takes: those are followed where they are used."""
    for node in mod.walk(root):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                full = alias.name if isinstance(node, ast.Import) else _from_name(node, alias)
                for sibling, used in _own(full, sources, first_only=False):
                    yield sibling, (None if import_time and sibling != PACKAGE else used)
        elif isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Load):
            for used in _own(mod.resolve(node) or "", sources, first_only=True):
                if used[0] != mod.name or used[1] is not None:  # (its own function, through an import of itself:
                    yield used  # ``from .strides import _patch as _go``, read as the other modules' are)
            if isinstance(node, ast.Name) and node.id not in mod.bindings and node.id not in mod.imports:
                # a name only a `from ._helpers import *` can bind: whichever of the implementation's own
                # star-imported modules defines it is read, whatever Python would pick (hiding is the worry)
                for star in mod.stars:
                    for sibling, _ in _own(star, sources, first_only=False):
                        if sibling != mod.name:
                            yield sibling, node.id


def _own(dotted: str, sources: dict[str, str], first_only: bool) -> Iterator[tuple[str, str | None]]:
    """The implementation's module (and the name used from it) that a dotted name stands for. A name the
    package's ``__init__`` may bind too (``from . import vjp`` beside a ``vjp.py``, where ``__init__`` star-imports
    ``torch.func``) is that as well: ``from . import`` hands out the package's attribute where it has one."""
    packaged = dotted.startswith(".") or dotted.split(".")[0] == "assignment"
    parts = [p for p in dotted.lstrip(".").split(".") if p and p != "assignment"]
    for i, part in enumerate(parts[:1] if first_only else parts):
        if part in sources:
            yield part, (parts[i + 1] if i + 1 < len(parts) else None)
            if i == 0 and packaged and part != PACKAGE and PACKAGE in sources \
                    and _package_may_bind(sources[PACKAGE], part):
                yield PACKAGE, part
            if i + 1 < len(parts):  # `model.helper.f` where model binds helper to a module of its own
                for aliased in _module_aliases(sources[part], parts[i + 1]):
                    if aliased in sources:
                        yield aliased, (parts[i + 2] if i + 2 < len(parts) else None)
            return
    if packaged and parts and PACKAGE in sources:
        yield PACKAGE, parts[0]
        for aliased in _module_aliases(sources[PACKAGE], parts[0]):  # `from . import model as helper`
            if aliased in sources:
                yield aliased, (parts[1] if len(parts) > 1 else None)


@functools.lru_cache(maxsize=1024)
def _module_aliases(text: str, name: str, same: bool = False) -> tuple[str, ...]:
    """The implementation's modules that a module (``text``) may bind ``name`` to, under another name: ``from .
    import model as helper``, ``from assignment import model as helper``, ``import assignment.model as helper``,
    ``helper = model`` (any binding of it, anywhere in the module's top-level code, followed through the names it
    reads). Its attributes are read there (``helper.f`` is model's ``f``). ``same``: ``from . import model`` too.
    The names it gives are what may be modules: the caller keeps those that are the submission's."""
    tree = _tree_of(text)
    if tree is None:
        return ()
    found: list[str] = []
    seen, todo = {name}, [name]
    while todo:
        current = todo.pop()
        for statement in _binding_statements(tree, current):
            # a def binds its function, or what its decorators make of it: what its body hands on (`return
            # model`) is read where it runs (``_modules_as_values``), not as what the name holds
            parts = (n for d in statement.decorator_list for n in walk(d)) \
                if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) else _same_scope(statement)
            for node in parts:
                if isinstance(node, ast.ImportFrom) and (node.level == 1 and not node.module
                                                         or node.level == 0 and node.module == "assignment"):
                    found += [a.name for a in node.names if (a.asname or a.name) == current]
                elif isinstance(node, ast.Import):
                    found += [a.name.split(".")[-1] for a in node.names if a.asname == current
                              and (a.name.startswith("assignment.") or "." not in a.name)]
                # any other binding (``helper = model``, ``helper, n = model, 1``, ``helper = pkg.model``, ``helper =
                # getattr(pkg, "model")``, a loop over modules): every module it may hold, read as held
                elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in seen:
                    seen.add(node.id)
                    found.append(node.id)
                    todo.append(node.id)
                elif isinstance(node, ast.Attribute) and _off_an_import(tree, node):
                    found.append(node.attr)  # ``pkg.model``, ``model.helper`` (not ``counter.flops``)
                elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                    found.append(node.value)
    return tuple(dict.fromkeys(m for m in found if same or m != name))


def _off_an_import(tree: ast.Module, node: ast.Attribute) -> bool:
    """Whether an attribute chain starts at a name the module binds by an import (a module, or what one holds),
    or at ``assignment``: where an attribute may be a module of the submission's own."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and (node.id == "assignment" or any(
        isinstance(statement, (ast.Import, ast.ImportFrom)) for statement in _binding_statements(tree, node.id)))


def _modules_as_values(mod: Module, root: ast.AST, sources: dict[str, str]) -> list[str]:
    """The submission's own modules ``root`` hands on as values (``return model``, ``NS.m = model``, ``[model]``,
    ``f(model)``; ``model.f`` is read as itself): any of their functions may then run wherever the value goes,
    which no reading follows name by name, so a reading that must not find a name reads each such module whole."""
    nodes = list(mod.walk(root))
    dereferenced = {id(n.value) for n in nodes if isinstance(n, ast.Attribute)}
    # a name the module's top binds to a table of modules (`MODULES = {"flops": flops}`, a self-check's registry)
    # is followed where it is read (``_module_aliases``): only the lambdas in it hand a module on from there
    if isinstance(root, (ast.Assign, ast.AnnAssign)) and any(root is s for s in mod.tree.body) \
            and all(isinstance(t, ast.Name) for t in (root.targets if isinstance(root, ast.Assign) else [root.target])):
        dereferenced |= {id(n) for n in nodes} - {id(n) for lam in nodes if isinstance(lam, ast.Lambda)
                                                   for n in walk(lam.body)}
    found: list[str] = []
    top = {id(statement) for statement in mod.tree.body}
    for node in nodes:  # imported in a function or a class body (`class Box: from . import model as m`): a
        # name no reading of the module's top level resolves, handed on from there as anything may be
        if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in top:
            for alias in node.names:
                full = alias.name if isinstance(node, ast.Import) else _from_name(node, alias)
                found += [m for m, used in _own(full, sources, first_only=True) if used is None and m != mod.name]
        if not isinstance(node, (ast.Name, ast.Attribute)) or not isinstance(node.ctx, ast.Load) \
                or id(node) in dereferenced:
            continue
        head = node
        while isinstance(head, ast.Attribute):
            head = head.value
        if not isinstance(head, ast.Name) or (head.id in mod.bindings and head.id not in mod.imports
                                              and head.id not in mod.aliases):
            continue  # (a def, a class or a plain constant of its own: no module)
        dotted = mod.resolve(node, sources=sources) or ""
        if dotted.startswith(".") or dotted.split(".")[0] == "assignment":
            found += [m for m, used in _own(dotted, sources, first_only=True) if used is None and m != mod.name]
    return found


EVERYTHING = "*"  # (module, EVERYTHING): a module held as an object under some name: all it defines may be called
HANDED_ON = "@"  # (module, HANDED_ON): the functions it hands on as they are defined (``Module.handed_on``)


def _held_modules(mod: Module, function: str | None, sources: dict[str, str]) -> list[tuple[str, str]]:
    """Where ``mod``'s name ``function`` (every name of it, for ``EVERYTHING``) may hold a module of the
    submission's own (``from . import model as helper``, ``NS = {"m": model}``, a chain of such through siblings):
    that module, with everything in it read (``getattr(helper, "f")``, ``NS["m"].f``, ``helper.f`` two siblings
    away: which of its functions runs is not followed name by name)."""
    if function is None or mod.name not in sources:
        return []
    names = list(mod.bindings) if function == EVERYTHING else [function]
    return [(held, EVERYTHING) for each in names
            for held in _module_aliases(sources[mod.name], each, same=True) if held in sources and held != mod.name]


@functools.lru_cache(maxsize=256)
def _package_may_bind(text: str, name: str) -> bool:
    """Whether the package's ``__init__`` (``text``) may bind ``name`` other than to its own submodule: a statement
    of its own binds it (one import of the submodule aside, alone), or a star import may bring it (one of the
    implementation's own modules' is read as though it may)."""
    try:
        package = Module.parse(text, PACKAGE)
    except SyntaxError:
        return True
    # (a library's star import only: one of the submission's own modules binding a sibling's name is followed
    # where that module is read, and a package re-exporting its modules by star imports is the common case)
    starred = any(_star_brings(star, name, None, 0, set()) is not None for star, _ in package.star_imports
                  if not star.startswith(".") and star.split(".")[0] != "assignment")
    if name in package.bindings:
        return starred or package.bindings[name] != 1 or name in package.declared_global \
            or package.imports.get(name) not in (f".{name}", f"assignment.{name}")
    return starred


def _package_binding_unread(package: Module, name: str, sources: dict[str, str]) -> bool:
    """Whether what the package's ``__init__`` binds ``name`` to, where a module of that name is also the
    submission's, cannot be told: bound more than once (``from . import vjp``, then ``from torch.func import
    vjp``), or once and also by a star import that may bring it, or only by a star import that cannot be read.
    (``from . import vjp`` then takes whichever binding ran last, or the module.)"""
    starred = package._star_candidates(name, sources, 0, {PACKAGE})
    if name in package.bindings:
        return package.bindings[name] != 1 or name in package.declared_global or starred is not None
    return starred == ""
