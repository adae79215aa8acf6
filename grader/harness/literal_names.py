"""Which names in a submission's module can only hold strings written out in its source.

``grader.harness.tamper`` refuses a ``getattr`` (``hasattr``, ``setattr``, ...) of a name built at run
time: ``"__glo" + "bals__"`` leads anywhere. A name that can only ever hold strings written out in the
source is read as those strings instead, each checked as a name written out would be:

    for name in ("weight", "bias"): getattr(layer, name)              a loop over literal strings
    for name, bits, man in LAYOUTS: getattr(torch, name)               a column of a literal table's rows
    for n, f in TABLE.items(): ...; for n in TABLE: ...                a literal dict's keys (or values)
    for n in "mm addmm bmm".split(): ...                               a literal string split
    for i, n in enumerate(NAMES, 1): ...                               enumerate, sorted (key=, reverse=),
                                                                       reversed, list, tuple, set, zip(strict=)
    def op(name): return getattr(aten, name)  ...  op("mm")            a parameter every call gives a literal
    NAMES[key]                                                         an item of a literal table
    RECIPES[r]["master"], RECIPES[r].get("master")                     ... of a table in it (None is no name)
    row = RECIPES[r]; row["params"]; p, q = ROWS[key]                  ... through a name given it, unpacked
    for line, (dtype, n) in RECIPES[r].items(): setattr(ledger, line, ...)   ... iterated
    MIXED = {**BASE, "p": "bfloat16"}, dict(BASE, p=...), dict(zip(A, B))  tables made of tables (``_Composer``)
    for row in ROWS: getattr(torch, row.dtype)                         a field of a plain NamedTuple's rows

The reading is sound, not complete. A name counts only if every binding of it in its scope gives it
such strings (a parameter, another assignment, an ``except ... as``, an import of the same name in
that scope make it a name built at run time). A table counts only if it is bound once and only ever
read where it is used (iterated, indexed, ``.items()``, ``.keys()``, ``.values()``, ``.get()``, ``in``,
``len``): never handed on, where it could be changed; a list, dict or set written out in it likewise,
wherever it goes (an item of the table, a loop's name, a name given it, at any depth): ``T["a"]["p"] =
x``, ``T["a"].update(...)``, ``f(T["a"])``, ``for v in T.values(): v["p"] = x`` make the table no table.
A table another holds or copies is read where that one is read: ``A = {"b": B}; A["b"]["p"] = x``, or
``A = {**B}; A["r"]["p"] = x`` where B holds a dict, make B no table either.
A helper counts only if it is bound once and only ever called, with its arguments written out (no
``*args``), never handed on or decorated (but by functools' ``cache`` or ``lru_cache``). A module's own
names (a table, a loop's name, a helper) count only if no other module of the submission stores into or
deletes an attribute of that name, passes that name to ``setattr``, imports it under another name, or
calls ``vars`` (a built-in read, ``sorted``, likewise); a helper another module names is read as called
with anything. A module's own ``setattr`` given a name not written out may set only the strings that name
can hold, none of them such a name.
"""

from __future__ import annotations

import ast
import builtins
import functools
import importlib.util
import sys
from dataclasses import dataclass, field

from grader.harness.source import walk

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
SCOPES = (ast.Module, ast.ClassDef, *FUNCTIONS, *COMPREHENSIONS)
DISPLAYS = (ast.Tuple, ast.List, ast.Set, ast.Dict)
# a literal table's methods that only read it, and what each hands back
TABLE_READS = frozenset(["items", "keys", "values", "get", "index", "count"])
# built-ins whose rows are their argument's (enumerate's with a count before each)
WRAPPERS = frozenset(["enumerate", "sorted", "reversed", "list", "tuple", "set", "frozenset"])
# what each may be given besides what it iterates (none of it changes what it gives)
WRAPPER_OPTIONS = {"enumerate": ("start",), "sorted": ("key", "reverse")}
CACHES = frozenset(["cache", "lru_cache"])  # functools' decorators that call a helper only as it is called
ROUNDS = 8  # a name given by a name given by ...: deeper chains are read as built at run time
# the owner of a read that may see either of two scopes' bindings (``_Module.ambiguous``): none of them
AMBIGUOUS = ast.Module(body=[], type_ignores=[])
# what a module's read of a name finds before the module binds it: a built-in, or what the import system sets
FALLBACKS = frozenset(dir(builtins)) | frozenset(["__doc__", "__name__", "__file__", "__spec__", "__loader__",
                                                  "__package__", "__cached__", "__path__", "__annotations__"])


@dataclass
class _Binding:
    """One place a name is bound. ``kind``: "loop" (a for or comprehension target), "assign" (``=``),
    "param" (a function's parameter), "def" (a function's own name, undecorated), "import", or
    "other" (anything else: read as built at run time)."""

    kind: str
    source: ast.AST | None = None  # loop: the iterable; assign: the value; param and def: the function
    path: tuple[int, ...] = ()  # loop and assign: where in the target's tuples the name stands
    name: str = ""  # param: the parameter's name


@dataclass
class _Module:
    """One module's scopes: who binds each name where, and where each name is read."""

    tree: ast.Module
    parent: dict[int, ast.AST] = field(default_factory=dict)  # node -> the node that holds it
    enclosing: dict[int, ast.AST | None] = field(default_factory=dict)  # scope -> its enclosing scope
    bound: dict[int, set[str]] = field(default_factory=dict)  # scope -> names bound in it
    declared: dict[int, dict[str, str]] = field(default_factory=dict)  # scope -> name -> global/nonlocal
    bindings: dict[tuple[int, str], list[_Binding]] = field(default_factory=dict)
    owner: dict[int, ast.AST | None] = field(default_factory=dict)  # a loaded Name -> the scope binding it
    loads: dict[str, list[ast.Name]] = field(default_factory=dict)  # name -> where it is read
    stores: dict[int, ast.AST | None] = field(default_factory=dict)  # a stored Name -> the scope it binds in
    # a loaded Name that may read one of two scopes' bindings, as the code runs (``AMBIGUOUS``, its owner)
    ambiguous: dict[int, tuple[int, ...]] = field(default_factory=dict)
    plain: dict[int, bool] = field(default_factory=dict)  # a class -> whether its body runs in a plain dict

    def scan(self) -> None:
        todo: list[tuple[ast.AST, ast.AST]] = [(self.tree, self.tree)]
        self.enclosing[id(self.tree)] = None
        names: list[tuple[str, ast.AST, _Binding]] = []  # (name, scope it appears in, binding)
        loads: list[tuple[ast.Name, ast.AST]] = []
        stored: list[tuple[ast.Name, ast.AST]] = []
        while todo:
            node, scope = todo.pop()
            children = list(ast.iter_child_nodes(node))
            for child in children:
                self.parent[id(child)] = node
            if node is not scope and isinstance(node, SCOPES):
                self._open(node, scope, todo, names)
                continue
            if isinstance(node, ast.Name):
                if isinstance(node.ctx, ast.Load):
                    loads.append((node, scope))
                else:
                    names.append((node.id, self._walrus_scope(node, scope), self._binding_of(node, scope)))
                    stored.append((node, names[-1][1]))
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                kind = "global" if isinstance(node, ast.Global) else "nonlocal"
                self.declared.setdefault(id(scope), {}).update({name: kind for name in node.names})
            elif isinstance(node, ast.alias):
                local = node.asname or node.name.split(".")[0]
                if local != "*":
                    names.append((local, scope, _Binding("import", node)))
            elif isinstance(node, ast.ExceptHandler) and node.name:
                names.append((node.name, scope, _Binding("other")))
            elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
                names.append((node.name, scope, _Binding("other")))
            elif isinstance(node, ast.MatchMapping) and node.rest:
                names.append((node.rest, scope, _Binding("other")))
            todo += [(child, scope) for child in children]
        for name, scope, binding in names:
            self.bound.setdefault(id(scope), set()).add(name)
        for name, scope, binding in names:
            owner = self._owner_of_binding(name, scope)
            if owner is not None:
                self.bindings.setdefault((id(owner), name), []).append(binding)
        for node, scope in stored:
            self.stores[id(node)] = self._owner_of_binding(node.id, scope)
        for node, scope in loads:
            owner = self.resolve(node.id, scope)
            if isinstance(scope, ast.ClassDef) and not self._plain_class(scope):
                # a metaclass's __prepare__ (its own, or a base's) hands the body a namespace of its making,
                # which may give any name any value: no read in the body is the reading's
                self.ambiguous[id(node)], owner = (id(scope), id(self.tree)), AMBIGUOUS
            elif isinstance(owner, ast.ClassDef) and owner is scope and not self._bound_before(node, owner):
                # a class body reads the module's binding (or a built-in) until its own has run: either
                self.ambiguous[id(node)], owner = (id(owner), id(self.tree)), AMBIGUOUS
            elif owner is self.tree and node.id in FALLBACKS:
                # read before the module binds it, a built-in's or the import system's (``__doc__``) is read
                self.ambiguous[id(node)], owner = (id(self.tree),), AMBIGUOUS
            self.owner[id(node)] = owner
            self.loads.setdefault(node.id, []).append(node)

    def _plain_class(self, cls: ast.ClassDef, depth: int = 0) -> bool:
        """A class whose body runs in a plain dict: no keywords (no metaclass), and no base but ``object`` or a
        plain class of the module's own, bound once by its class statement. (Read once a class: each read in its
        body asks.)"""
        if depth:  # (a base, on the way: its answer may be cut short by depth, and is not kept)
            return self._plain_now(cls, depth)
        if id(cls) not in self.plain:
            self.plain[id(cls)] = self._plain_now(cls, 0)
        return self.plain[id(cls)]

    def _plain_now(self, cls: ast.ClassDef, depth: int) -> bool:
        if cls.keywords or depth > ROUNDS:
            return False
        for base in cls.bases:
            if not isinstance(base, ast.Name):
                return False
            if base.id == "object" and not self.rebinds_builtin("object"):
                continue
            owner = self.resolve(base.id, self.enclosing.get(id(cls)) or self.tree)
            bindings = self.bindings.get((id(owner), base.id), []) if owner is not None else []
            defined = [n for n in walk(owner) if isinstance(n, ast.ClassDef) and n.name == base.id
                       and self.enclosing.get(id(n)) is owner] \
                if len(bindings) == 1 and bindings[0].kind == "other" else []
            if len(defined) != 1 or not self._plain_class(defined[0], depth + 1):
                return False
        return True

    def _bound_before(self, node: ast.Name, cls: ast.ClassDef) -> bool:
        """Whether a statement of the class body ahead of the one reading ``node`` binds its name, always (an
        assignment, a def, a class or an import at the body's top, not under an ``if`` or a loop)."""
        statement: ast.AST | None = node
        while statement is not None and self.parent.get(id(statement)) is not cls:
            statement = self.parent.get(id(statement))
        if statement is None or statement not in cls.body:
            return False
        for earlier in cls.body[:cls.body.index(statement)]:
            if isinstance(earlier, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and earlier.name == node.id:
                return True
            if isinstance(earlier, (ast.Import, ast.ImportFrom)) and any(
                    (a.asname or a.name.split(".")[0]) == node.id for a in earlier.names):
                return True
            targets = earlier.targets if isinstance(earlier, ast.Assign) else \
                [earlier.target] if isinstance(earlier, ast.AnnAssign) and earlier.value is not None else []
            if any(isinstance(t, ast.Name) and t.id == node.id for target in targets for t in walk(target)):
                return True
        return False

    def _open(self, node: ast.AST, scope: ast.AST, todo: list, names: list) -> None:
        """A scope inside ``scope``: what of it is evaluated outside (a def's decorators, defaults and
        annotations, a comprehension's first iterable) goes to ``scope``, the rest inside."""
        self.enclosing[id(node)] = scope
        inside: list[ast.AST] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append((node.name, scope, _Binding("def", node)
                          if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                          and all(self._caches(d, scope) for d in node.decorator_list) else _Binding("other")))
            todo += [(d, scope) for d in node.decorator_list]
        if isinstance(node, FUNCTIONS):
            args = node.args
            todo += [(d, scope) for d in (*args.defaults, *(d for d in args.kw_defaults if d is not None))]
            if not isinstance(node, ast.Lambda):
                todo += [(a.annotation, scope) for a in (*args.posonlyargs, *args.args, *args.kwonlyargs,
                                                        args.vararg, args.kwarg) if a and a.annotation]
                todo += [(node.returns, scope)] if node.returns else []
            for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs):
                names.append((arg.arg, node, _Binding("param", node, name=arg.arg)))
            for arg in (args.vararg, args.kwarg):
                if arg:
                    names.append((arg.arg, node, _Binding("other")))
            inside = node.body if isinstance(node.body, list) else [node.body]
        elif isinstance(node, ast.ClassDef):
            todo += [(b, scope) for b in (*node.bases, *node.keywords)]
            inside = node.body
        elif isinstance(node, COMPREHENSIONS):
            first, *rest = node.generators
            todo.append((first.iter, scope))
            inside = [first.target, *first.ifs, *rest]
            inside += [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            for generator in node.generators:
                self.parent[id(generator.target)] = generator
                self.parent[id(generator.iter)] = generator
                for each in generator.ifs:
                    self.parent[id(each)] = generator
            for each in [g.iter for g in rest] + [g.target for g in node.generators]:
                self.parent.setdefault(id(each), node)
        todo += [(child, node) for child in inside]

    def _caches(self, decorator: ast.AST, scope: ast.AST) -> bool:
        """``functools.cache``, ``functools.lru_cache`` or ``lru_cache(maxsize=...)``, imported from functools and
        bound to nothing else in the module (read when the module's names are: a decorator that calls the
        helper only as it is called). Checked again once every binding is known (``cached_only``)."""
        if isinstance(decorator, ast.Call) and not decorator.args[1:] and all(
                isinstance(a, ast.Constant) for a in (*decorator.args, *(k.value for k in decorator.keywords))):
            decorator = decorator.func
        if isinstance(decorator, ast.Attribute) and isinstance(decorator.value, ast.Name):
            return decorator.attr in CACHES and decorator.value.id == "functools"
        return isinstance(decorator, ast.Name) and decorator.id in CACHES

    def cached_only(self, function: ast.AST, replaceable) -> bool:
        """Whether every decorator of ``function`` is functools' cache: each name it is read by bound only by an
        import from functools (``from functools import cache``, ``import functools``) in the module."""
        for decorator in getattr(function, "decorator_list", ()):
            if isinstance(decorator, ast.Call):
                decorator = decorator.func
            name, wanted = (decorator.value.id, "functools") if isinstance(decorator, ast.Attribute) \
                else (decorator.id, decorator.id)
            bindings = [b for (scope, n), bs in self.bindings.items() if n == name for b in bs]
            if not bindings or replaceable(name) or any(
                    b.kind != "import" or not _imports_from_functools(b.source, self.parent, wanted) for b in bindings):
                return False
        return True

    def _walrus_scope(self, node: ast.Name, scope: ast.AST) -> ast.AST:
        """A ``:=`` in a comprehension binds in the scope around the comprehensions."""
        if isinstance(self.parent.get(id(node)), ast.NamedExpr):
            while isinstance(scope, COMPREHENSIONS):
                scope = self.enclosing[id(scope)]
        return scope

    def _binding_of(self, node: ast.Name, scope: ast.AST) -> _Binding:
        """What a stored name is given: a loop's rows, an assignment's value (at the name's place in
        the target's tuples), or something read as built at run time."""
        if not isinstance(node.ctx, ast.Store):
            return _Binding("other")  # del
        path: list[int] = []
        child, holder = node, self.parent.get(id(node))
        while isinstance(holder, (ast.Tuple, ast.List)):
            path.insert(0, next(i for i, e in enumerate(holder.elts) if e is child))
            child, holder = holder, self.parent.get(id(holder))
        if isinstance(holder, (ast.For, ast.comprehension)) and holder.target is child:
            return _Binding("loop", holder.iter, tuple(path))
        if isinstance(holder, ast.Assign) and len(holder.targets) == 1 and holder.targets[0] is child:
            return _Binding("assign", holder.value, tuple(path))
        if isinstance(holder, ast.AnnAssign) and holder.value is not None and not path:
            return _Binding("assign", holder.value)
        return _Binding("other")

    def _owner_of_binding(self, name: str, scope: ast.AST) -> ast.AST | None:
        kind = self.declared.get(id(scope), {}).get(name)
        if kind == "global":
            return self.tree
        if kind == "nonlocal":
            outer = self.enclosing.get(id(scope))
            while outer is not None and not (isinstance(outer, FUNCTIONS) and name in self.bound.get(id(outer), ())):
                outer = self.enclosing.get(id(outer))
            return outer
        return scope

    def resolve(self, name: str, scope: ast.AST) -> ast.AST | None:
        """The scope whose binding of ``name`` a read in ``scope`` sees (None: a built-in, or nothing)."""
        kind = self.declared.get(id(scope), {}).get(name)
        if kind == "global":
            return self.tree
        current: ast.AST | None = scope
        while current is not None:
            if (current is scope or not isinstance(current, ast.ClassDef)) and name in self.bound.get(id(current), ()):
                return self._owner_of_binding(name, current)
            current = self.enclosing.get(id(current))
        return None

    def rebinds_builtin(self, name: str) -> bool:
        """Whether the module may bind a built-in's name: it binds it, or a star import may (a module of the
        submission's own can define ``len``; read as though any does)."""
        return self.star_imports or any(name in names for names in self.bound.values())

    @functools.cached_property
    def star_imports(self) -> bool:
        """Whether the module has a star import (read once: each use of a built-in asks)."""
        return any(isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names) for n in walk(self.tree))


@functools.lru_cache(maxsize=256)
def _a_library(name: str) -> bool:
    """Whether a bare ``import name`` may find something other than the submission's module of that name: the
    workers look for a sibling by its bare name last, after every library (``import sys`` is the real one)."""
    if name in sys.stdlib_module_names or name in sys.builtin_module_names or name in sys.modules:
        return True
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return True


class LiteralStrings:
    """For one module of a submission (read beside the others): the strings an expression can take, where
    it can only take strings written out in the source (``of``)."""

    def __init__(self, tree: ast.Module, others: list[ast.Module]) -> None:
        # each tree is scanned and indexed once, kept on it (a submission's modules are read beside each
        # other: every reading here stays linear in the source, whatever it holds)
        self.module = _scanned(tree)
        self.others = others
        self.siblings: dict[str, LiteralStrings] = {}  # the submission's other modules by name (``learn_siblings``)
        # names this module's own setattr is given, not written out (``for line, v in ROW.items(): setattr(
        # ledger, line, v)``): each read as the strings it can hold (else it may replace any name). Read first
        # as though they replace none of this module's names, then as though they replace every string found
        # so far, until they can hold no other: no setattr can then be the first to replace a name the
        # reading relies on, as each is given only strings read while every such name held what is written
        names, setting = _setters(tree)
        self._every = names is _EVERY or any(_replaceable_of(t) is _EVERY for t in others)
        self._set: set[str] = set()  # the strings those names can hold, so far
        for _ in range(ROUNDS):
            self._read()
            found = [self.of(name) for name in setting]
            if self._every or all(f is not None and self._set.issuperset(f) for f in found):
                return
            self._set.update(s for f in found for s in f or ())
            self._every = None in found
        self._every = True
        self._read()

    def _read(self) -> None:
        self.tables: dict[tuple[int, str], ast.AST] = {}  # (scope, name) -> a literal table bound once
        self.strings: dict[tuple[int, str], list[str]] = {}  # (scope, name) -> the strings it can hold
        self._given_now: dict[int, dict[str, list[str] | None]] = {}  # this round's, by helper
        self._owned: set[int] = set()  # every display in a literal table (``_readable``)
        self._aliases: dict[tuple, tuple] = {}  # (module, scope, name, values) -> whether only read (``_alias``)
        self._known: dict[int, list[ast.AST] | None] = {}  # node -> what it can be (``_values``)
        self._find_tables()
        for _ in range(ROUNDS):
            self._given_now = {}
            found = {key: strings for key in self.module.bindings if (strings := self._name_strings(key)) is not None}
            if found == self.strings:
                break
            self.strings = found

    def learn_siblings(self, siblings: dict[str, "LiteralStrings"]) -> None:
        """The readings of the submission's other modules, by module name: a constant one of them binds and this
        one imports (``from ._common import WEIGHTS_ONLY``, ``_common.WEIGHTS_ONLY``) is read as what it is
        there. (What was read before them read such a name as built at run time: read again.)"""
        self.siblings = siblings
        self._known = {}

    def _imported(self, alias: ast.alias, depth: int) -> list[ast.AST] | None:
        """The constants a name imported from a module of the submission (``from .common import X``) can be."""
        statement = self.module.parent.get(id(alias))
        if not isinstance(statement, ast.ImportFrom) or statement.module is None or alias.name == "*":
            return None
        parts = statement.module.split(".")
        sibling = parts[-1] if statement.level > 0 and len(parts) == 1 else \
            parts[1] if statement.level == 0 and len(parts) == 2 and parts[0] == "assignment" else \
            parts[0] if statement.level == 0 and len(parts) == 1 and not _a_library(parts[0]) else None
        reading = self.siblings.get(sibling) if sibling is not None else None
        return None if reading is None or reading is self else reading.constants(alias.name, depth + 1)

    def _sibling_module(self, node: ast.AST) -> "LiteralStrings | None":
        """The reading of the submission's module a name is bound to, once, by an import of it (``from . import
        common``, ``from assignment import common``, ``import assignment.common as common``, ``import common``)."""
        bindings = self._bindings_of(node) if isinstance(node, ast.Name) else None
        if not bindings or len(bindings) != 1 or bindings[0].kind != "import":
            return None
        alias = bindings[0].source
        statement = self.module.parent.get(id(alias))
        if isinstance(statement, ast.ImportFrom):
            own = statement.level > 0 and statement.module is None or statement.level == 0 \
                and statement.module == "assignment"
            sibling = alias.name if own and self._package_holds_module(alias.name) else None
        else:
            parts = alias.name.split(".")
            sibling = parts[1] if len(parts) == 2 and parts[0] == "assignment" and alias.asname \
                and self._package_holds_module(parts[1]) else \
                parts[0] if len(parts) == 1 and not _a_library(parts[0]) else None
        reading = self.siblings.get(sibling) if sibling is not None else None
        return None if reading is self else reading

    def _package_holds_module(self, name: str) -> bool:
        """Whether the package's attribute ``name``, which ``from . import name`` reads before it imports the
        module, can only be that module: ``__init__`` binds no such name and no code can set it."""
        init = self.siblings.get("__init__")
        if init is not None:
            return name not in init.module.bound.get(id(init.module.tree), ()) and not init._replaceable(name)
        return not any(name in _replaceable_of(t) for t in (self.module.tree, *self.others))

    def constants(self, name: str, depth: int = 0) -> list[ast.AST] | None:
        """The constants this module's top-level ``name`` can hold, where every binding of it gives one written
        out (here, or imported so from another module of the submission) and no code can replace it; else None.
        Constants alone: a display handed to another module may be changed there."""
        bindings = self.module.bindings.get((id(self.module.tree), name))
        if depth > ROUNDS or not bindings or self._replaceable(name) and not self._only_renamed(name):
            return None
        found: list[ast.AST] = []
        for binding in bindings:
            values = self._values(binding.source, depth) if binding.kind == "assign" and not binding.path else \
                self._imported(binding.source, depth) if binding.kind == "import" else None
            if values is None or not all(isinstance(v, ast.Constant) for v in values):
                return None
            found += values
        return found

    def _only_renamed(self, name: str) -> bool:
        """Whether ``name`` reads as replaceable only because a module imports it under another name
        (``from .common import WEIGHTS_ONLY as W``), which rebinds no constant."""
        if self._every or self.module.star_imports or name in self._set:
            return False
        own = self.module.tree
        return (name not in _setters(own)[0] or name in _renamed_only(own)) and all(
            name not in _replaceable_of(t) or name in _renamed_only(t) for t in self.others)

    def _replaceable(self, name: str) -> bool:
        """Whether code of the submission could replace this module's name ``name`` (``_replaceable_of``), or
        a star import of this module's may (``WEIGHTS_ONLY = True`` and then ``from .helpers import *``, whose
        module binds it again: read as though any does, as for the built-ins)."""
        return self._every or self.module.star_imports or name in self._set \
            or name in _setters(self.module.tree)[0] or any(name in _replaceable_of(t) for t in self.others)

    def _named_elsewhere(self, name: str) -> bool:
        return any(name in _index(other) for other in self.others)

    # what an expression can be
    def of(self, node: ast.AST) -> list[str] | None:
        """The strings ``node`` can evaluate to, or None where it may be any (built at run time). None
        written out is no name (``getattr(torch, None)`` fails) and is left out."""
        if isinstance(node, ast.Constant):
            return [node.value] if isinstance(node.value, str) else None
        if isinstance(node, ast.Name):
            owner = self.module.owner.get(id(node))
            return None if owner is None else self.strings.get((id(owner), node.id))
        if isinstance(node, (ast.BoolOp, ast.IfExp)):  # ``row.get("master") or "float32"``: one of them
            found = [self.of(n) for n in (node.values if isinstance(node, ast.BoolOp) else (node.body, node.orelse))]
            return None if None in found else list(dict.fromkeys(s for strings in found for s in strings))
        return _strings(self._values(node))  # an item of a literal table, at any depth

    def rows(self, node: ast.AST) -> list[ast.AST] | None:
        """The items iterating ``node`` gives, each an expression written out, or None where unknown."""
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return None if any(isinstance(e, ast.Starred) for e in node.elts) else list(node.elts)
        if isinstance(node, ast.Dict):
            return None if any(k is None for k in node.keys) else list(node.keys)
        if not isinstance(node, ast.Call):  # a table, an item of one, a name given one
            return _complete(_iterate(self._values(node), self._readable))
        if node.keywords and not (_is_split(node) or self._wrapper(node, self.module)
                                  or self._zipped(node, self.module)):
            return None
        func = node.func
        if _is_split(node):
            separator = node.args[0].value if node.args else None
            return [ast.Constant(text) for text in func.value.value.split(separator)]
        if isinstance(func, ast.Attribute) and func.attr in ("items", "keys", "values") and not node.args:
            if isinstance(func.value, ast.Dict):  # ``{"fp32": "float32"}.items()``: a display no one else holds
                return _complete(_view([func.value], func.attr, lambda n: n is func.value or self._readable(n)))
            return _complete(_view(self._values(func.value), func.attr, self._readable))
        if self._zipped(node, self.module):  # zip(NAMES, LAYOUTS): at each place, every item of that table
            columns = [_complete(_iterate(self._values(a), self._readable)) for a in node.args]
            if None in columns:
                return None
            # (every item at its place, however zip pairs and cuts them: a name at one place can hold any of them)
            longest = max(map(len, columns)) if all(columns) else 0
            return [ast.Tuple([c[i % len(c)] for c in columns]) for i in range(longest)]
        # the built-in itself: bound nowhere in the module, and no code of the submission puts a module
        # attribute of that name in its place (``strides.sorted = ...`` from another module)
        if self._wrapper(node, self.module):
            rows = self.rows(node.args[0])
            if rows is None or func.id != "enumerate":
                return rows
            return [ast.Tuple([ast.Constant(i), row]) for i, row in enumerate(rows)]
        return None

    def loop_sources(self, node: ast.Name) -> list[ast.AST] | None:
        """The iterables of every binding of a read name, where each binds it as a loop's whole target, or
        as the target at one place of a loop over ``zip`` (that place's iterable); else None."""
        bindings = self._bindings_of(node)
        if not bindings or any(b.kind != "loop" or len(b.path) > 1 or b.path and not (
                self._zipped(b.source, self.module) and b.path[0] < len(b.source.args)) for b in bindings):
            return None
        return [b.source.args[b.path[0]] if b.path else b.source for b in bindings]

    def loop_items(self, node: ast.Name) -> list[ast.AST] | None:
        """The items a read name may hold where every binding of it is a loop's target, each an expression
        written out: the rows of each loop's iterable (``rows``), or where the name stands at a place of a
        tuple target (``for op, f in T.items()``), that place of each row; else None."""
        bindings = self._bindings_of(node)
        if not bindings or any(b.kind != "loop" for b in bindings):
            return None
        items = []
        for binding in bindings:
            rows = self.rows(binding.source)
            if rows is None:
                return None
            for row in rows:
                for place in binding.path:
                    if not isinstance(row, (ast.Tuple, ast.List)) or place >= len(row.elts) \
                            or any(isinstance(e, ast.Starred) for e in row.elts):
                        return None
                    row = row.elts[place]
                items.append(row)
        return items

    def assign_sources(self, node: ast.Name) -> list[ast.AST] | None:
        """The values of every binding of a read name, where each is a plain ``=`` of the whole name; else None."""
        bindings = self._bindings_of(node)
        if not bindings or any(b.kind != "assign" or b.path for b in bindings):
            return None
        return [b.source for b in bindings]

    def only_imported(self, node: ast.AST) -> bool:
        """Whether a read name (or an attribute's base name) is bound, where it is read, by imports only."""
        while isinstance(node, ast.Attribute):
            node = node.value
        bindings = self._bindings_of(node) if isinstance(node, ast.Name) else None
        return bool(bindings) and all(b.kind == "import" for b in bindings)

    def _bindings_of(self, node: ast.Name) -> list[_Binding] | None:
        owner = self.module.owner.get(id(node))
        if owner is None or (owner is self.module.tree and self._replaceable(node.id)):
            return None
        return self.module.bindings.get((id(owner), node.id))

    # names
    def _name_strings(self, key: tuple[int, str]) -> list[str] | None:
        """The strings every binding of a name gives it, or None where one may give anything else."""
        bindings = self.module.bindings[key]
        if key[0] == id(self.module.tree) and self._replaceable(key[1]):
            return None
        found: list[str] = []
        for binding in bindings:
            strings = self._binding_strings(binding)
            if strings is None:
                return None
            found += [s for s in strings if s not in found]
        return found

    def _binding_strings(self, binding: _Binding) -> list[str] | None:
        if binding.kind == "loop":
            return _strings(_complete(_at(self._rows(binding.source), binding.path, self._readable)))
        if binding.kind == "assign":
            if binding.path:  # ``p, q = ROWS[key]``
                return _strings(_complete(_at(self._values(binding.source), binding.path, self._readable)))
            return self.of(binding.source)
        if binding.kind == "param":
            return self._param_strings(binding)
        return None

    def _rows(self, node: ast.AST) -> list[ast.AST] | None:
        rows = self.rows(node)
        if rows is None:
            return None
        # a row that is a name (for n in (a, b)): its strings, written out as constants
        out: list[ast.AST] = []
        for row in rows:
            if isinstance(row, ast.Name):
                strings = self.of(row)
                if strings is None:
                    return None
                out += [ast.Constant(s) for s in strings]
            else:
                out.append(row)
        return out

    def _values(self, node: ast.AST, depth: int = 0) -> list[ast.AST] | None:
        """Every node written out that ``node`` can evaluate to (a constant, a display, an item of a display
        of a literal table), or None where it may be anything else. Kept per node: each is read once."""
        if id(node) in self._known:
            return self._known[id(node)]
        self._known[id(node)] = None  # a name given by itself: unknown
        found = self._values_now(node, depth) if depth <= ROUNDS else None
        self._known[id(node)] = found
        return found

    def _values_now(self, node: ast.AST, depth: int) -> list[ast.AST] | None:
        if isinstance(node, (ast.Constant, ast.Tuple, ast.List, ast.Set, ast.Dict)):
            return [node]  # read into only where it cannot change (``_readable``)
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):  # ``row.dtype`` of NamedTuple rows
            option = self._instance_field(node)  # ``OPTIONS.weights_only`` of a plain dataclass's one instance
            if option is not None:
                return [option]
            sibling = self._sibling_module(node.value)  # ``common.WEIGHTS_ONLY``: that module's constant
            if sibling is not None:
                return sibling.constants(node.attr, depth + 1)
            rows = self._values(node.value, depth + 1)
            found = [self._field(row, node.attr) for row in rows or ()]
            return None if rows is None or not rows or None in found else found
        if isinstance(node, ast.Name):
            table = self._table(node)
            if table is not None:
                return [table]
            found: list[ast.AST] = []  # an alias (``row = TABLE[key]``), a loop's name, unpacked
            for binding in self._bindings_of(node) or [_Binding("other")]:
                if binding.kind == "assign":
                    values = self._values(binding.source, depth + 1)
                elif binding.kind == "loop":
                    values = self._row_values(binding.source, depth + 1)
                elif binding.kind == "import":  # ``from .common import WEIGHTS_ONLY``: a constant there
                    values = self._imported(binding.source, depth)
                else:
                    return None
                values = _complete(_at(values, binding.path, self._readable))
                if values is None:
                    return None
                found += values
            return found
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            picked = self._picked_rows(node.value, depth)  # ``[row for row in TABLE if ...][0]``: any of its rows
            if picked is not None:
                return picked
            return _complete(_items(self._values(node.value, depth + 1), node.slice, self._readable))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "next" \
                and not self.module.rebinds_builtin("next") and 1 <= len(node.args) <= 2 and not node.keywords \
                and isinstance(node.args[0], ast.GeneratorExp):  # ``next((row for row in TABLE if ...), None)``
            found = self._comprehension_rows(node.args[0], depth)
            default = node.args[1:]
            if found is None or default and not (isinstance(default[0], ast.Constant) and default[0].value is None):
                return None  # (None, where no row is found, is no name: getattr of it fails, and so does unpacking)
            return found
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                and 1 <= len(node.args) <= 2 and not node.keywords:  # a dict's .get(key, default=None)
            dicts = self._values(node.func.value, depth + 1)
            if dicts is None or not all(isinstance(d, ast.Dict) for d in dicts):
                return None
            found = _complete(_items(dicts, node.args[0], self._readable))
            key = node.args[0]
            if found is not None and not all(isinstance(key, ast.Constant) and any(
                    isinstance(k, ast.Constant) and k.value == key.value for k in d.keys) for d in dicts):
                default = self._values(node.args[1], depth + 1) if len(node.args) == 2 else [ast.Constant(None)]
                found = None if default is None else found + default
            return found
        return None

    def _picked_rows(self, node: ast.AST, depth: int) -> list[ast.AST] | None:
        """The rows an item of ``node`` can be, where ``node`` is a comprehension that picks rows of a table written
        out (``_comprehension_rows``), in place or bound once to a name only ever indexed, measured or tested
        (nothing can put another row in the list it holds)."""
        if isinstance(node, ast.Name):
            bindings = self._bindings_of(node)
            if not bindings or len(bindings) != 1 or bindings[0].kind != "assign" or bindings[0].path:
                return None
            owner = self.module.owner.get(id(node))
            if owner is self.module.tree and (self._replaceable(node.id) or self._reached_by_name(node.id)):
                return None  # (a module's name: another module, or this one through an import of itself, may change it)
            for load in _loads(self.module, (id(owner), node.id)):
                use = self.module.parent.get(id(load))
                if not (isinstance(use, ast.Subscript) and use.value is load and isinstance(use.ctx, ast.Load)
                        or isinstance(use, ast.Call) and isinstance(use.func, ast.Name) and use.func.id == "len"
                        and use.args == [load] and not self.module.rebinds_builtin("len")
                        or isinstance(use, (ast.If, ast.IfExp, ast.While)) and use.test is load
                        or isinstance(use, ast.UnaryOp) and isinstance(use.op, ast.Not)
                        or isinstance(use, ast.Compare) and load in use.comparators  # ``key in picked``
                        and all(isinstance(op, (ast.In, ast.NotIn)) for op in use.ops)):
                    return None
            node = bindings[0].source
        if not isinstance(node, (ast.ListComp, ast.DictComp)):
            return None
        return self._comprehension_rows(node, depth)

    def _comprehension_rows(self, node: ast.AST, depth: int) -> list[ast.AST] | None:
        """What a comprehension over a table written out gives, where it gives each row it keeps as it is (``[row
        for row in TABLE if row[0] == key]``, ``{row[0]: row for row in TABLE}``): those rows' values."""
        item = node.value if isinstance(node, ast.DictComp) else getattr(node, "elt", None)
        if not isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.DictComp)) or len(node.generators) != 1:
            return None
        loop = node.generators[0]
        if loop.is_async or not (isinstance(loop.target, ast.Name) and isinstance(item, ast.Name)
                                 and item.id == loop.target.id):
            return None
        rows = self.rows(loop.iter)
        found: list[ast.AST] = []
        for row in rows or ():
            values = self._values(row, depth + 1) if isinstance(row, ast.Name) else [row]
            if values is None:
                return None
            found += values
        return None if rows is None else found

    def _field(self, row: ast.AST, name: str) -> ast.AST | None:
        """What field ``name`` of ``row`` is, where ``row`` is a call of a NamedTuple of the module's own that
        only declares its fields (``class Row(NamedTuple): dtype: str``; bound once, by its class statement,
        replaced by no module), given written out: the argument at the field's place, by keyword, or the
        default. A NamedTuple's fields cannot change; anything else is None (built at run time)."""
        if not (isinstance(row, ast.Call) and isinstance(row.func, ast.Name)) \
                or any(isinstance(a, ast.Starred) for a in row.args) or any(k.arg is None for k in row.keywords):
            return None
        fields = self._named_tuple(row.func)
        if fields is None or name not in fields:
            return None
        at = list(fields).index(name)
        given = [k.value for k in row.keywords if k.arg == name]
        value = given[0] if given else row.args[at] if at < len(row.args) else fields[name]
        return value if isinstance(value, ast.Constant) else None

    def _instance_field(self, node: ast.Attribute) -> ast.AST | None:
        """What ``OPTIONS.field`` is, where ``OPTIONS`` is bound once, at the module's top, to a call of a plain
        dataclass of the module's own (``_dataclass``) with the field given written out or left at its default
        written out, and the instance is only ever read for its fields here (or handed to ``dataclasses.asdict``
        alone, which copies them; never handed on otherwise, so nothing can call its ``__init__`` again or set a
        field through ``object.__setattr__``), reached by no other name and replaced by none. Else None."""
        name = node.value
        if not isinstance(name, ast.Name) or id(name) in self.module.ambiguous:
            return None
        owner = self.module.owner.get(id(name))
        key = (id(owner), name.id)
        bindings = self.module.bindings.get(key, []) if owner is self.module.tree else []
        if len(bindings) != 1 or bindings[0].kind != "assign" or bindings[0].path:
            return None
        call = bindings[0].source
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)) \
                or any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return None
        fields = self._dataclass(call.func)
        if fields is None or node.attr not in fields or self._replaceable(name.id) or self._reached_by_name(name.id):
            return None
        for load in _loads(self.module, key):
            read = self.module.parent.get(id(load))
            if not (isinstance(read, ast.Attribute) and read.value is load and read.attr in fields
                    and isinstance(read.ctx, ast.Load)
                    or isinstance(read, ast.Call) and read.args == [load] and not read.keywords
                    and self._from_dataclasses(read.func, "asdict")):  # (a dict of its fields, copied)
                return None
        at = list(fields).index(node.attr)
        given = [k.value for k in call.keywords if k.arg == node.attr]
        value = given[0] if given else call.args[at] if at < len(call.args) else fields[node.attr]
        return value if isinstance(value, ast.Constant) else None

    def _dataclass(self, func: ast.Name) -> dict[str, ast.AST | None] | None:
        """The fields (and their defaults written out) of the plain dataclass ``func`` names: a class of the
        module's top, bound once by its class statement, only ever called, named by no other module, with no
        base and one decorator, ``dataclasses.dataclass`` (its options constants), a body of fields with
        constant defaults (and a docstring) only: no method, no ``__post_init__``, no keyword-only marker; no
        code of the submission sets an attribute of a field's name. Else None."""
        owner = self.module.owner.get(id(func))
        key = (id(owner), func.id)
        bindings = self.module.bindings.get(key, []) if owner is self.module.tree else []
        if len(bindings) != 1 or self._replaceable(func.id) or self._reached_by_name(func.id):
            return None
        for load in _loads(self.module, key):
            call = self.module.parent.get(id(load))
            if not (isinstance(call, ast.Call) and call.func is load):
                return None
        classes = [n for n in self.module.tree.body if isinstance(n, ast.ClassDef) and n.name == func.id]
        if len(classes) != 1 or classes[0].bases or classes[0].keywords or len(classes[0].decorator_list) != 1 \
                or not self._dataclass_decorator(classes[0].decorator_list[0]):
            return None
        fields: dict[str, ast.AST | None] = {}
        for statement in classes[0].body:
            # a field's type one of the built-ins' own, named so (a ClassVar under any name, or a store in an
            # annotation, would make the fields other than the ones read here; dataclasses looks a type given as
            # text up in the module, where the name must be the built-in's)
            if _field_statement(statement) and (statement.value is None or isinstance(statement.value, ast.Constant)) \
                    and all(isinstance(n, ast.Name) and n.id in FIELD_TYPES and not self.module.rebinds_builtin(n.id)
                            or isinstance(n, ast.Constant) and n.value is None
                            or isinstance(n, (ast.BinOp, ast.BitOr, ast.Load))
                            and (not isinstance(n, ast.BinOp) or isinstance(n.op, ast.BitOr))
                            for n in walk(statement.annotation)):
                fields[statement.target.id] = statement.value
            elif not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)):
                return None
        touched = (*fields, "__new__", "__init__", "__class__", "__getattribute__", "__getattr__", "__setattr__")
        return None if any(self._replaceable(name) for name in touched) else fields

    def _dataclass_decorator(self, decorator: ast.expr) -> bool:
        """``@dataclass``, ``@dataclass(frozen=True)``, ``@dataclasses.dataclass(...)``: the library's (options
        given as constants, none that makes its fields keyword-only)."""
        if isinstance(decorator, ast.Call):
            if decorator.args or any(k.arg in (None, "kw_only") or not isinstance(k.value, ast.Constant)
                                     for k in decorator.keywords):
                return False
            decorator = decorator.func
        return self._from_dataclasses(decorator, "dataclass")

    def _from_dataclasses(self, node: ast.expr, function: str) -> bool:
        """Whether ``node`` is the dataclasses library's ``function``: a name bound once at the module's top, by
        ``from dataclasses import function``, or ``dataclasses.function`` with ``dataclasses`` bound once so."""
        if isinstance(node, ast.Name):
            imported, library = node.id, False
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.attr == function:
            imported, library = node.value.id, True
        else:
            return False
        bindings = self.module.bindings.get((id(self.module.tree), imported), [])
        if len(bindings) != 1 or bindings[0].kind != "import" or self._replaceable(imported):
            return False
        statement = self.module.parent.get(id(bindings[0].source))
        if library:
            return isinstance(statement, ast.Import) and any(
                a.name == "dataclasses" and (a.asname or a.name) == imported for a in statement.names)
        return isinstance(statement, ast.ImportFrom) and statement.module == "dataclasses" and statement.level == 0 \
            and any(a.name == function and (a.asname or a.name) == imported for a in statement.names)

    def as_dict(self, node: ast.AST) -> ast.Dict | None:
        """``dataclasses.asdict(OPTIONS)`` of a plain dataclass's one instance (``_instance_field``), each field
        written out: a dict display of its fields and their values (``torch.load(path, **asdict(OPTIONS))``)."""
        if not (isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords
                and isinstance(node.args[0], ast.Name) and self._from_dataclasses(node.func, "asdict")):
            return None
        instance = node.args[0]
        bindings = self.module.bindings.get((id(self.module.tree), instance.id), [])
        call = bindings[0].source if len(bindings) == 1 and bindings[0].kind == "assign" else None
        fields = self._dataclass(call.func) if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) else None
        if fields is None:
            return None
        values = [self._instance_field(ast.Attribute(value=instance, attr=name, ctx=ast.Load())) for name in fields]
        if any(value is None for value in values):
            return None
        return ast.Dict(keys=[ast.Constant(name) for name in fields], values=values)

    def _reached_by_name(self, name: str) -> bool:
        """Whether a module-level ``name`` may be reached other than by this module's own reads of it: another
        module names it, or any module (this one too, through an import of itself) reads it as an attribute,
        imports it, or holds it as text (``getattr(mod, "OPTIONS")``, ``attrgetter("OPTIONS")``)."""
        for tree in (self.module.tree, *self.others):  # (another module's index holding it: named elsewhere)
            own = tree is self.module.tree
            for node in _index(tree).get(name, ()):
                if not (own and isinstance(node, ast.Name)):
                    return True
            if name in _texts(tree):
                return True
        return False

    def _named_tuple(self, func: ast.Name) -> dict[str, ast.AST | None] | None:
        """The fields (and their defaults written out) of the plain NamedTuple ``func`` names, or None."""
        owner = self.module.owner.get(id(func))
        bindings = self.module.bindings.get((id(owner), func.id), []) if owner is not None else []
        if owner is not self.module.tree or len(bindings) != 1 or self._replaceable(func.id) \
                or self._named_elsewhere(func.id):
            return None
        for load in _loads(self.module, (id(owner), func.id)):  # only ever called: never handed on, where a
            call = self.module.parent.get(id(load))  # ``setattr(cls, "dtype", ...)`` could replace a field
            if not (isinstance(call, ast.Call) and call.func is load):
                return None
        classes = [n for n in self.module.tree.body if isinstance(n, ast.ClassDef) and n.name == func.id]
        if len(classes) != 1 or classes[0].decorator_list or classes[0].keywords or len(classes[0].bases) != 1:
            return None
        cls, base = classes[0], classes[0].bases[0]
        if not (isinstance(base, ast.Name) and base.id == "NamedTuple" and self.module.bindings.get(
                (id(self.module.tree), "NamedTuple")) and all(b.kind == "import" and isinstance(
                    self.module.parent.get(id(b.source)), ast.ImportFrom) and self.module.parent[id(b.source)].module
                in ("typing", "typing_extensions") for b in self.module.bindings[(id(self.module.tree), "NamedTuple")])
                or isinstance(base, ast.Attribute) and base.attr == "NamedTuple" and isinstance(base.value, ast.Name)
                and base.value.id in ("typing", "typing_extensions") and self.module.bindings.get(
                    (id(self.module.tree), base.value.id))):
            return None
        fields: dict[str, ast.AST | None] = {}
        for statement in cls.body:
            if _field_statement(statement) and not any(isinstance(n, (ast.NamedExpr, ast.Call, ast.Lambda, ast.Await,
                                                                        ast.Yield, ast.YieldFrom))
                                                        for n in walk(statement.annotation)):
                fields[statement.target.id] = statement.value
            elif not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)):
                return None  # only fields (and a docstring): no method, no property, no field replaced
        # (no code of the submission sets an attribute of a field's name anywhere, ``type(row).dtype = ...``, nor
        # what makes or reads a row otherwise, ``row.__class__ = Other``)
        touched = (*fields, "__new__", "__init__", "__class__", "__getattribute__", "__getattr__")
        return None if any(self._replaceable(name) for name in touched) else fields

    def _row_values(self, node: ast.AST, depth: int) -> list[ast.AST] | None:
        """``rows``, a row that is a name given as what it can hold."""
        rows = self.rows(node)
        found: list[ast.AST] = []
        for row in rows or ():
            values = self._values(row, depth) if isinstance(row, ast.Name) else [row]
            if values is None:
                return None
            found += values
        return None if rows is None else found

    def _readable(self, node: ast.AST) -> bool:
        """Whether what is in a display is what is written there: a tuple's is; a list's, a dict's or a set's
        only in a literal table, whose every use was read (``_read_only``)."""
        return isinstance(node, ast.Tuple) or id(node) in self._owned

    def _param_strings(self, binding: _Binding) -> list[str] | None:
        """A parameter of a helper bound once, never decorated, only ever called (and not a method): the
        strings every call gives it (or its default)."""
        function = binding.source
        if id(function) not in self._given_now:
            self._given_now[id(function)] = self._helper_params(function)
        return self._given_now[id(function)].get(binding.name)

    def _helper_params(self, function: ast.AST) -> dict[str, list[str] | None]:
        """Each parameter of a helper: the strings its calls give it (None where one may give anything). A helper is
        a def, or a lambda bound by itself to a name (``_dt = lambda name: getattr(torch, name)``), bound once."""
        owner = self.module.enclosing[id(function)]
        if isinstance(function, ast.Lambda):
            bound = self.module.parent.get(id(function))
            if not (isinstance(bound, ast.Assign) and len(bound.targets) == 1 and isinstance(bound.targets[0], ast.Name)
                    and bound.value is function):
                return {}
            name = bound.targets[0].id
            defs = self.module.bindings.get((id(owner), name), [])
            if len(defs) != 1 or defs[0].kind != "assign" or defs[0].source is not function or defs[0].path \
                    or isinstance(owner, ast.ClassDef):
                return {}
        else:
            name = function.name
            defs = self.module.bindings.get((id(owner), name), [])
            if len(defs) != 1 or defs[0].kind != "def" or defs[0].source is not function \
                    or isinstance(owner, ast.ClassDef) \
                    or not self.module.cached_only(function, self._replaceable):
                return {}
        if owner is self.module.tree and (self._replaceable(name) or self._reached_by_name(name)):
            return {}  # another module (or this one, through an import of itself) could call it with anything
        calls = []
        for node in _loads(self.module, (id(owner), name)):
            call = self.module.parent.get(id(node))
            if not (isinstance(call, ast.Call) and call.func is node):
                return {}  # handed on: what it is called with is not read
            if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
                return {}
            calls.append(call)
        if not calls:
            return {}
        args = function.args
        positional = [a.arg for a in (*args.posonlyargs, *args.args)]
        keywords = {a.arg for a in (*args.args, *args.kwonlyargs)}
        defaults = dict(zip(positional[len(positional) - len(args.defaults):], args.defaults))
        defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
        found: dict[str, list[str] | None] = {name: [] for name in (*positional, *(a.arg for a in args.kwonlyargs))}
        for call in calls:
            given: dict[str, list[ast.AST]] = {}
            for name, value in zip(positional, call.args):
                given.setdefault(name, []).append(value)
            for keyword in call.keywords:
                if keyword.arg in keywords:
                    given.setdefault(keyword.arg, []).append(keyword.value)
            for name, strings in found.items():
                if strings is None:
                    continue
                values = given.get(name) or ([defaults[name]] if name in defaults else [])
                these = self.of(values[0]) if len(values) == 1 else None
                found[name] = None if these is None else strings + [s for s in these if s not in strings]
        return found

    # tables
    def _find_tables(self) -> None:
        """Names bound once, by ``=``, to a literal tuple, list, set or dict, and only ever read, through
        every display in it (``_read_only``). A table may be made of others (``_Composer``): it is read as what
        it holds, and a table it is made of is read only where every table made of it is (its name loaded in a
        table that is no table is a use like any other). A table made of one that is no table (used otherwise
        elsewhere) is read again with that one's name kept as written, an item read as built at run time."""
        candidates: dict[tuple[int, str], ast.AST] = {}
        handed_out = _hands_out_locals(self.module.tree)
        for key, bindings in self.module.bindings.items():
            if len(bindings) != 1 or bindings[0].kind != "assign" or bindings[0].path:
                continue
            if handed_out and key[0] != id(self.module.tree):
                continue
            if key[0] == id(self.module.tree) and self._replaceable(key[1]):
                continue
            candidates[key] = bindings[0].source
        kept: set[tuple[int, str]] = set()  # tables that are none, kept as written where another names them
        for _ in range(ROUNDS):
            composer = _Composer(self, candidates, kept)
            tables = self._only_read(composer)
            no_tables = {part for key in tables for part in composer.parts[key]} - tables
            if not no_tables:
                break
            kept |= no_tables
        else:  # (each round keeps one more as written: past ROUNDS, none is read as made of others)
            composer = _Composer(self, candidates, set(candidates))
            tables = self._only_read(composer)
        for key in tables:
            self.tables[key] = composer.made[key]
            self._owned.update(map(id, _displays(composer.made[key])))

    def _only_read(self, composer: _Composer) -> set[tuple[int, str]]:
        """The tables ``composer`` made whose every use is only a read (a module's: in every module of the
        submission, ``_only_read_elsewhere``): each drops out at its first use that is not a read, and with it
        every table that holds it (not one that copies it and holds nothing that can change), until none does."""
        tables = {key for key, value in composer.made.items()
                  if key[0] != id(self.module.tree) or self._only_read_elsewhere(key[1], value)}
        read: dict[int, bool] = {}  # a load not in another table: whether only read
        while True:
            dropped = set()
            for key in tables:
                value = composer.made[key]
                for load in _loads(self.module, key):
                    holder = composer.held_by.get(id(load))
                    if holder is not None:
                        holder_key, copied = holder
                        if holder_key in tables or copied and not any(map(_mutable, _contents([value]))):
                            continue
                        dropped.add(key)
                        break
                    if id(load) not in read:
                        read[id(load)] = self._read_only(load, [value], self.module, top=True)
                    if not read[id(load)]:
                        dropped.add(key)
                        break
            if not dropped:
                return tables
            tables -= dropped

    def _read_only(self, node: ast.AST, values: list[ast.AST], module: _Module, depth: int = 0,
                   top: bool = False) -> bool:
        """Whether ``node``, which evaluates to one of ``values`` (a table, or what is in one: written out,
        ``_items``), is only read where it stands. Where none of them can change (strings, numbers, None,
        tuples of them) it may go anywhere, but the table itself (``top``) only where it is read. A list,
        dict or set in it only where it is read: indexed (``.get``), iterated (``.items()``, ``sorted``, ...)
        by a loop whose names, each given one, are in turn only read, ``in``, ``len``, or given to a name
        that is in turn only read where it is loaded; never handed on, where it could be changed."""
        if not top and not any(map(_mutable, values)):
            return True
        if depth > ROUNDS:
            return False
        parent = module.parent.get(id(node))
        if isinstance(parent, ast.Subscript) and parent.value is node:
            return isinstance(parent.ctx, ast.Load) and \
                self._read_only(parent, _items(values, parent.slice)[0], module, depth + 1)
        if isinstance(parent, ast.Attribute) and parent.value is node and parent.attr in TABLE_READS:
            call = module.parent.get(id(parent))
            if not (isinstance(call, ast.Call) and call.func is parent):
                return False
            if parent.attr == "get":  # the default given is no table's
                return self._read_only(call, _items(values, call.args[0] if call.args else None)[0], module, depth + 1)
            if parent.attr in ("index", "count"):  # each item compared with what is given, by its __eq__
                return not any(map(_mutable, _iterate(values)[0]))
            return self._iterated(call, values, _view(values, parent.attr)[0], module, depth)
        if isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is node \
                or self._wrapper(parent, module) and parent.args[0] is node:
            return self._iterated(node, values, _iterate(values)[0], module, depth)
        if isinstance(parent, ast.Compare) and all(isinstance(op, (ast.Is, ast.IsNot)) for op in parent.ops):
            return True  # ``rows is None``: an identity, nothing of it called
        if isinstance(parent, ast.keyword) and parent.arg is None:  # ``f(**OPTIONS)``: a new dict of its items
            return isinstance(module.parent.get(id(parent)), ast.Call) and not any(map(_mutable, _contents(values)))
        if isinstance(parent, ast.Compare) and node in parent.comparators and all(
                isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops):  # a dict's keys, another's items compared
            return all(isinstance(v, ast.Dict) or not any(map(_mutable, _iterate([v])[0])) for v in values)
        if self._builtin(parent, ("len",), module) and parent.args[0] is node or self._formatted(node, module):
            return True
        if self._zipped(parent, module) and any(a is node for a in parent.args):  # zipped, then iterated
            holder = module.parent.get(id(parent))
            return isinstance(holder, (ast.For, ast.comprehension)) and holder.iter is parent \
                and not any(map(_mutable, _contents(values)))  # (its rows, unpacked, go to the loop's names)
        if isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is node:  # an alias, or unpacked
            targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
            return len(targets) == 1 and self._bound(targets[0], values, module, depth)
        return False

    def _iterated(self, node: ast.AST, values: list[ast.AST], rows: list[ast.AST], module: _Module,
                  depth: int) -> bool:
        """``node``, one of ``values``, a view of them (``.items()``) or a built-in's iterator over them
        (``enumerate``), giving ``rows``: where something in them can change, only iterated by a loop (a
        view's ``.mapping``, an iterator's ``__reduce__`` hand the table on), each row given to its names."""
        if not any(map(_mutable, _contents(values))):
            return True
        parent = module.parent.get(id(node))
        if isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is node:
            return self._bound(parent.target, rows, module, depth)
        if self._wrapper(parent, module) and parent.args[0] is node:
            if parent.func.id == "sorted" and parent.keywords and any(map(_mutable, rows)):
                return False  # (each handed to its key)
            if parent.func.id == "sorted" and any(map(_mutable, rows)) and not (  # compared by their __lt__
                    isinstance(node, ast.Call) and node.func.attr == "items" and _complete(_iterate(values))
                    is not None and all(isinstance(k, ast.Constant) for k in _iterate(values)[0])):
                return False  # (a dict's items, keyed by strings or numbers only, are sorted by their keys alone)
            rows = [ast.Tuple([ast.Constant(0), r]) for r in rows] if parent.func.id == "enumerate" else rows
            return self._iterated(parent, values, rows, module, depth)
        return self._builtin(parent, ("len",), module) and parent.args[0] is node or self._formatted(node, module)

    def _formatted(self, node: ast.AST, module: _Module) -> bool:
        """``node`` made text where it stands, nothing of it kept (a table named in a message): an f-string's
        ``{T}``; ``str``, ``repr``, ``ascii``, ``format`` or ``print`` of it; ``", ".join(T)``, ``"%s" % (T,)``
        and ``"{}".format(T)`` on text written out. (Not a logger's call: a handler of the submission's own
        is handed the record, and the table in it.)"""
        parent = module.parent.get(id(node))
        if isinstance(parent, ast.Tuple) and isinstance(module.parent.get(id(parent)), ast.BinOp):
            node, parent = parent, module.parent.get(id(parent))  # ("%s: %s" % (name, T))
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "map" \
                and len(parent.args) == 2 and parent.args[1] is node and isinstance(parent.args[0], ast.Name) \
                and parent.args[0].id in ("str", "repr") and self._plain_builtin("map", module) \
                and self._plain_builtin(parent.args[0].id, module):
            node, parent = parent, module.parent.get(id(parent))  # ", ".join(map(str, T)): text of each item
            if not (isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute)
                    and parent.func.attr == "join"):
                return False
        if isinstance(parent, ast.FormattedValue):
            return parent.value is node
        if isinstance(parent, ast.BinOp):
            return isinstance(parent.op, ast.Mod) and parent.right is node and _text(parent.left)
        if not isinstance(parent, ast.Call) or not any(a is node for a in parent.args):
            return False
        func = parent.func
        if isinstance(func, ast.Attribute):
            return func.attr in ("join", "format") and _text(func.value) and not (
                func.attr == "join" and len(parent.args) != 1) and all(k.arg is not None for k in parent.keywords)
        name = func.id if isinstance(func, ast.Name) else None
        if name == "print":
            return all(k.arg in ("sep", "end", "file", "flush") for k in parent.keywords) \
                and not any(isinstance(a, ast.Starred) for a in parent.args) and self._plain_builtin(name, module)
        return name in ("str", "repr", "ascii", "format") and not parent.keywords and 1 <= len(parent.args) <= 2 \
            and parent.args[0] is node and self._plain_builtin(name, module)

    def _plain_builtin(self, name: str, module: _Module) -> bool:
        """The built-in ``name`` itself: no module binds that name, and no code of the submission puts a module
        attribute of that name in its place."""
        return not module.rebinds_builtin(name) and not self._replaceable(name)

    def _bound(self, target: ast.AST, values: list[ast.AST], module: _Module, depth: int) -> bool:
        """A loop's or an assignment's target given one of ``values``: each name in it only read."""
        if not any(map(_mutable, values)):
            return True
        if isinstance(target, ast.Name):
            return self._alias(target, values, module, depth)
        if isinstance(target, (ast.Tuple, ast.List)) and not any(isinstance(t, ast.Starred) for t in target.elts):
            return all(self._bound(t, _unpacked(values, i, len(target.elts)), module, depth)
                       for i, t in enumerate(target.elts))
        return False  # stored in an attribute, an item, a list of the rest: kept where it is not read

    def _alias(self, name: ast.Name, values: list[ast.AST], module: _Module, depth: int) -> bool:
        """A name given one of ``values``, something in which can change: every load of it only read. Not a
        class's name (read as an attribute), a module's only in this module and named in no other, in no
        module that calls ``locals`` (its dict hands the names on), never ``+=``-ed or deleted."""
        owner = module.stores.get(id(name))
        if owner is None or isinstance(owner, ast.ClassDef) or _hands_out_locals(module.tree):
            return False
        if owner is module.tree and (module is not self.module or self._replaceable(name.id)
                                     or self._named_elsewhere(name.id)):
            return False
        if any(b.kind not in ("assign", "loop") for b in module.bindings.get((id(owner), name.id), [])):
            return False
        key = (id(module), id(owner), name.id, frozenset(map(id, values)))
        if key not in self._aliases:  # (the values kept with it: a row made here keeps its id)
            self._aliases[key] = (False, values)  # given by itself: read as handed on
            self._aliases[key] = (all(self._read_only(load, values, module, depth + 1)
                                      for load in _loads(module, (id(owner), name.id))), values)
        return self._aliases[key][0]

    def _zipped(self, call: ast.AST, module: _Module) -> bool:
        """A call of the built-in ``zip`` with plain arguments, where no module binds that name."""
        return isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "zip" \
            and bool(call.args) and not any(isinstance(a, ast.Starred) for a in call.args) \
            and all(k.arg == "strict" for k in call.keywords) \
            and self._plain_builtin("zip", module)

    def _wrapper(self, call: ast.AST, module: _Module) -> bool:
        """A call of one of the built-ins ``WRAPPERS`` (where no module binds that name) given what it iterates,
        and only its ``WRAPPER_OPTIONS`` besides (``enumerate(T, 1)``, ``sorted(T, key=len, reverse=True)``)."""
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in WRAPPERS):
            return False
        options = WRAPPER_OPTIONS.get(call.func.id, ())
        return 1 <= len(call.args) <= 1 + (call.func.id == "enumerate") \
            and not any(isinstance(a, ast.Starred) for a in call.args) \
            and all(k.arg in options for k in call.keywords) \
            and self._plain_builtin(call.func.id, module)

    def _builtin(self, call: ast.AST, names, module: _Module) -> bool:
        """A call of one of the built-ins ``names`` with one argument, where no module binds that name."""
        return isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in names \
            and len(call.args) == 1 and not isinstance(call.args[0], ast.Starred) and not call.keywords \
            and self._plain_builtin(call.func.id, module)

    def _only_read_elsewhere(self, name: str, value: ast.AST) -> bool:
        """Another module that imports a table by its name only ever reads it (by that name), and so does this
        one through its module object (``from . import strides as me; me.T``); no module names it as text
        (``getattr(strides, "T")`` hands it out)."""
        if any(isinstance(n, ast.Constant) and n.value == name for t in [self.module.tree, *self.others]
               for n in _constants(t)):
            return False
        own = [n for n in _index(self.module.tree).get(name, ()) if isinstance(n, ast.Attribute)]
        return all(self._read_only(node, [value], _scanned(other), top=True) for other in self.others
                   for node in _index(other).get(name, ()) if not isinstance(node, ast.alias)) \
            and all(self._read_only(node, [value], self.module, top=True) for node in own)

    def _table(self, node: ast.AST) -> ast.AST | None:
        if not isinstance(node, ast.Name):
            return None
        owner = self.module.owner.get(id(node))
        return None if owner is None else self.tables.get((id(owner), node.id))

    def splatted(self, node: ast.AST) -> ast.Dict | None:
        """The dict display a name is bound to, once, by ``=``, where every read of the name is a call's ``**``
        (``options = {"extra": {"step": step}}``, then ``log.debug(text, **options)``): a ``**`` hands on a copy
        of the items, so no code can add a key to the dict, whatever its values are. Else None."""
        owner = self.module.owner.get(id(node)) if isinstance(node, ast.Name) else None
        if owner is None or owner is AMBIGUOUS:
            return None
        bindings = self.module.bindings.get((id(owner), node.id), [])
        if len(bindings) != 1 or bindings[0].kind != "assign" or bindings[0].path \
                or not isinstance(bindings[0].source, ast.Dict):
            return None
        if owner is self.module.tree and (self._replaceable(node.id) or self._reached_by_name(node.id)):
            return None
        if owner is not self.module.tree and _hands_out_locals(self.module.tree):
            return None
        for read in self.module.loads.get(node.id, ()):
            if self.module.owner.get(id(read)) is owner or id(read) in self.module.ambiguous:
                keyword = self.module.parent.get(id(read))
                if not (isinstance(keyword, ast.keyword) and keyword.arg is None and keyword.value is read
                        and isinstance(self.module.parent.get(id(keyword)), ast.Call)):
                    return None
        return bindings[0].source


class _Composer:
    """Literal tables made of others, read as what they hold, the way Python builds them:

        BASE = {"parameters": "float32", "gradients": "float32"}
        MIXED = {**BASE, "parameters": "bfloat16"}      a dict unpacked in a dict (a later key replaces)
        MIXED = dict(BASE, parameters="bfloat16")       the built-in dict, given a table and keywords
        MIXED = BASE | {"parameters": "bfloat16"}       dicts or sets joined
        NAMES = (*FLOATS, "int8"), FLOATS + ("int8",)   tuples or lists unpacked in one, or added
        RECIPES = {"fp32": BASE, "mixed": MIXED}        a table named in a table: that table itself

    ``made``: each candidate's display, what it is made of written out in it (a new display where it is
    made of others; itself where not); ``parts``: the tables each is made of; ``held_by``: a load of a
    table's name in another's value -> (that one, whether its items are copied rather than it held).
    Anything else (a call, a name that is no such table) is kept as written: read as built at run time
    wherever a name is looked for in it."""

    def __init__(self, reader: LiteralStrings, candidates: dict[tuple[int, str], ast.AST],
                 kept: set[tuple[int, str]]) -> None:
        self.reader, self.module = reader, reader.module
        self.candidates, self.kept = candidates, kept  # names bound once by ``=``; those kept as written
        self.made: dict[tuple[int, str], ast.AST] = {}
        self.parts: dict[tuple[int, str], set[tuple[int, str]]] = {}
        self.held_by: dict[int, tuple[tuple[int, str], bool]] = {}
        self._making: list[tuple[int, str]] = []
        for key, value in candidates.items():
            if isinstance(value, (*DISPLAYS, ast.BinOp)) or self._dict_call(value):
                self._make(key)

    def _make(self, key: tuple[int, str]) -> ast.AST | None:
        if key in self.made or key in self._making:
            return self.made.get(key)  # (a table made of itself is none: its name is unbound when it is made)
        self._making.append(key)
        self.parts[key] = set()
        made = self._display(self.candidates[key], key, 0)
        self._making.pop()
        if made is not None:
            self.made[key] = made
        return made

    def _table_named(self, node: ast.AST, holder: tuple[int, str], copied: bool) -> ast.AST | None:
        """The display of the table ``node`` names, noted as held (or copied) by ``holder``; else None."""
        if not isinstance(node, ast.Name):
            return None
        owner = self.module.owner.get(id(node))
        key = None if owner is None else (id(owner), node.id)
        if key not in self.candidates or key in self.kept:
            return None
        made = self._make(key)
        if made is not None:
            self.held_by[id(node)] = (holder, copied)
            self.parts[holder].add(key)
        return made

    def _display(self, node: ast.AST, holder: tuple[int, str], depth: int) -> ast.AST | None:
        """``node`` as a display written out; None where it is made of something else."""
        if depth > ROUNDS:
            return None
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            elts: list[ast.AST] = []
            for elt in node.elts:
                if isinstance(elt, ast.Starred):
                    inner = self._table_named(elt.value, holder, True) or self._literal(elt.value, holder, depth)
                    if isinstance(inner, (ast.Tuple, ast.List, ast.Set)):
                        elts += inner.elts
                        continue
                    elts.append(elt)  # unpacked from what is not read here: the display is incomplete
                else:
                    elts.append(self._item(elt, holder, depth))
            return node if all(a is b for a, b in zip(elts, node.elts)) and len(elts) == len(node.elts) \
                else type(node)(elts=elts, ctx=ast.Load()) if not isinstance(node, ast.Set) else ast.Set(elts=elts)
        if isinstance(node, ast.Dict):
            entries = _Entries()
            for key, value in zip(node.keys, node.values):
                if key is None:
                    inner = self._table_named(value, holder, True) or self._literal(value, holder, depth)
                    if isinstance(inner, ast.Dict):
                        entries.update(inner)
                        continue
                    entries.add(None, value)  # ``**`` of what is not read here: incomplete
                else:
                    entries.add(key, self._item(value, holder, depth))
            return node if entries.same_as(node) else entries.display()
        if isinstance(node, ast.BinOp):  # A | B (dicts, sets), A + B (tuples, lists)
            left = self._table_named(node.left, holder, True) or self._literal(node.left, holder, depth)
            right = self._table_named(node.right, holder, True) or self._literal(node.right, holder, depth)
            kinds = (type(left), type(right))
            if isinstance(node.op, ast.BitOr) and kinds == (ast.Dict, ast.Dict):
                entries = _Entries()
                entries.update(left)
                entries.update(right)
                return entries.display()
            if isinstance(node.op, ast.BitOr) and kinds == (ast.Set, ast.Set):
                return ast.Set(elts=[*left.elts, *right.elts])
            if isinstance(node.op, ast.Add) and kinds in ((ast.Tuple, ast.Tuple), (ast.List, ast.List)):
                return kinds[0](elts=[*left.elts, *right.elts], ctx=ast.Load())
            return None
        if self._dict_call(node):  # dict(BASE, k=v), dict(k=v), dict(zip(NAMES, LAYOUTS))
            entries = _Entries()
            if node.args and self._zip_call(node.args[0]):
                keys, values = (self._table_named(a, holder, True) or self._literal(a, holder, depth)
                                for a in node.args[0].args)
                if not (isinstance(keys, (ast.Tuple, ast.List)) and isinstance(values, (ast.Tuple, ast.List))) \
                        or any(isinstance(e, ast.Starred) for e in (*keys.elts, *values.elts)):
                    return None
                for key, value in zip(keys.elts, values.elts):  # (paired as zip pairs them, the longer cut)
                    entries.add(key, value)
            elif node.args:
                inner = self._table_named(node.args[0], holder, True) or self._literal(node.args[0], holder, depth)
                if not isinstance(inner, ast.Dict):
                    return None
                entries.update(inner)
            for keyword in node.keywords:
                entries.add(ast.Constant(keyword.arg), self._item(keyword.value, holder, depth))
            return entries.display()
        return None

    def _literal(self, node: ast.AST, holder: tuple[int, str], depth: int) -> ast.AST | None:
        """A display written out where it is used (``{**{"a": 1}}``, ``A | {"b": 2}``), or made there."""
        return self._display(node, holder, depth + 1) if isinstance(node, (*DISPLAYS, ast.BinOp, ast.Call)) else None

    def _item(self, node: ast.AST, holder: tuple[int, str], depth: int) -> ast.AST:
        """An item of a display: another table named (held), a display (read into), or anything else as it is."""
        named = self._table_named(node, holder, False)
        if named is not None:
            return named
        if isinstance(node, DISPLAYS):
            return self._display(node, holder, depth + 1) or node
        return node

    def _zip_call(self, node: ast.AST) -> bool:
        """``zip(KEYS, VALUES)``, the built-in, of two tables or displays (``strict=`` changes nothing it gives)."""
        return self.reader._zipped(node, self.module) and len(node.args) == 2

    def _dict_call(self, node: ast.AST) -> bool:
        """The built-in ``dict`` called with at most one argument and keywords written out (no ``**``)."""
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" \
            and len(node.args) <= 1 and not any(isinstance(a, ast.Starred) for a in node.args) \
            and all(k.arg is not None for k in node.keywords) and (node.args or node.keywords) \
            and self.reader._plain_builtin("dict", self.module)


class _Entries:
    """A dict display's entries as Python builds them: a key written out again keeps its place and takes the
    later value (``{1: a, True: b}`` is ``{1: b}``); a key not written out is kept beside the others."""

    def __init__(self) -> None:
        self.written: dict[object, list[ast.AST]] = {}
        self.other: list[tuple[ast.AST | None, ast.AST]] = []

    def add(self, key: ast.AST | None, value: ast.AST) -> None:
        if isinstance(key, ast.Constant):
            try:
                if key.value in self.written:
                    self.written[key.value][1] = value
                else:
                    self.written[key.value] = [key, value]
                return
            except TypeError:  # (no constant written out is unhashable; read as not written out if one were)
                pass
        self.other.append((key, value))

    def update(self, display: ast.Dict) -> None:
        for key, value in zip(display.keys, display.values):
            self.add(key, value)

    def pairs(self) -> list[tuple[ast.AST | None, ast.AST]]:
        return [(k, v) for k, v in self.written.values()] + self.other

    def same_as(self, display: ast.Dict) -> bool:
        pairs = self.pairs()
        return len(pairs) == len(display.keys) and all(
            k is a and v is b for (k, v), a, b in zip(pairs, display.keys, display.values))

    def display(self) -> ast.Dict:
        pairs = self.pairs()
        return ast.Dict(keys=[k for k, _ in pairs], values=[v for _, v in pairs])


def _loads(module: _Module, key: tuple[int, str]) -> list[ast.Name]:
    """Where a scope's name is read: a module's also where no scope binds it (bound by ``global`` in a
    function, it is bound in no scope's names)."""
    return [node for node in module.loads.get(key[1], []) if id(module.owner.get(id(node))) == key[0]
            or key[0] == id(module.tree) and module.owner.get(id(node)) is None
            or key[0] in module.ambiguous.get(id(node), ())]


def _text(node: ast.AST) -> bool:
    """Text written out (a string, an f-string)."""
    return isinstance(node, ast.JoinedStr) or isinstance(node, ast.Constant) and isinstance(node.value, str)


def _imports_from_functools(alias: ast.alias, parent: dict[int, ast.AST], wanted: str) -> bool:
    """``alias`` binds functools itself (``wanted`` "functools") or its ``wanted`` (``from functools import cache``)."""
    statement = parent.get(id(alias))
    if wanted == "functools":
        return isinstance(statement, ast.Import) and alias.name == "functools"
    return isinstance(statement, ast.ImportFrom) and statement.module == "functools" and statement.level == 0 \
        and alias.name == wanted


def _is_split(node: ast.Call) -> bool:
    func = node.func
    return isinstance(func, ast.Attribute) and func.attr == "split" and isinstance(func.value, ast.Constant) \
        and isinstance(func.value.value, str) and not node.keywords and len(node.args) <= 1 \
        and all(isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value for a in node.args)


# what is in displays written out (``values``): each function gives what it finds, and whether that is all
# (False where a display holds ``*rest`` or ``**rest``, where a value is no display, or one not ``readable``)
def _items(values, key: ast.AST | None, readable=lambda node: True) -> tuple[list[ast.AST], bool]:
    """What indexing each of ``values`` by ``key`` (a subscript's, a ``.get``'s) gives: where the key is
    written out, the items it names; else every item. A slice of a sequence is read as all of it."""
    found, complete = [], values is not None
    for value in values or ():
        if _no_value(value):
            continue
        if not readable(value):
            complete = False
        elif isinstance(value, ast.Dict):
            complete &= None not in value.keys
            found += [v for k, v in zip(value.keys, value.values) if k is not None and not (
                isinstance(key, ast.Constant) and isinstance(k, ast.Constant) and k.value != key.value)]
        elif isinstance(value, (ast.Tuple, ast.List)):
            elts = [e for e in value.elts if not isinstance(e, ast.Starred)]
            complete &= len(elts) == len(value.elts)
            if isinstance(key, ast.Slice):
                found.append(value)
            elif isinstance(key, ast.Constant) and type(key.value) is int and len(elts) == len(value.elts):
                found += [elts[key.value]] if -len(elts) <= key.value < len(elts) else []
            else:
                found += elts
        else:
            complete = False  # a string's characters, anything not written out
    return found, complete


def _iterate(values, readable=lambda node: True) -> tuple[list[ast.AST], bool]:
    """What iterating each of ``values`` gives: a dict's keys, another's items."""
    found, complete = [], values is not None
    for value in values or ():
        if _no_value(value):
            continue
        if readable(value) and isinstance(value, ast.Dict):
            complete &= None not in value.keys
            found += [k for k in value.keys if k is not None]
        elif readable(value) and isinstance(value, (ast.Tuple, ast.List, ast.Set)):
            elts = [e for e in value.elts if not isinstance(e, ast.Starred)]
            found += elts
            complete &= len(elts) == len(value.elts)
        else:
            complete = False
    return found, complete


def _view(values, attr: str, readable=lambda node: True) -> tuple[list[ast.AST], bool]:
    """What iterating ``.keys()``, ``.values()`` or ``.items()`` of each of ``values`` gives."""
    found, complete = [], values is not None
    for value in values or ():
        if _no_value(value):
            continue
        if not (readable(value) and isinstance(value, ast.Dict)) or None in value.keys:
            complete = False
            continue
        found += list(value.keys) if attr == "keys" else list(value.values) if attr == "values" else \
            [ast.Tuple([k, v]) for k, v in zip(value.keys, value.values)]
    return found, complete


def _at(values, path: tuple[int, ...], readable=lambda node: True) -> tuple[list[ast.AST], bool]:
    """What stands at ``path`` in each of ``values``, unpacked as tuples or lists written out."""
    found, complete = [], values is not None
    for value in values or ():
        for index in path:
            if not (readable(value) and isinstance(value, (ast.Tuple, ast.List))) or index >= len(value.elts) \
                    or any(isinstance(e, ast.Starred) for e in value.elts):
                complete = False
                break
            value = value.elts[index]
        else:
            found.append(value)
    return found, complete


def _unpacked(values: list[ast.AST], index: int, size: int) -> list[ast.AST]:
    """What the ``index``-th of ``size`` names unpacking each of ``values`` can be given (a dict gives its
    keys, which cannot change); where a display holds ``*rest``, any of its items."""
    found: list[ast.AST] = []
    for value in values:
        if isinstance(value, (ast.Tuple, ast.List, ast.Set)):
            elts = [e for e in value.elts if not isinstance(e, ast.Starred)]
            found += elts if len(elts) != len(value.elts) or isinstance(value, ast.Set) else \
                [elts[index]] if len(elts) == size else []
    return found


def _no_value(node: ast.AST) -> bool:
    """None written out (``T.get(key)``'s default): indexed or iterated it raises, and gives nothing."""
    return isinstance(node, ast.Constant) and node.value is None


def _complete(found: tuple[list[ast.AST], bool]) -> list[ast.AST] | None:
    return found[0] if found[1] else None


def _strings(values: list[ast.AST] | None) -> list[str] | None:
    """The strings ``values`` are, or None where one is neither a string nor None."""
    if values is None or not all(isinstance(v, ast.Constant) and (v.value is None or isinstance(v.value, str))
                                 for v in values):
        return None
    return list(dict.fromkeys(v.value for v in values if v.value is not None))


def _mutable(node: ast.AST) -> bool:
    """Whether a display written out can change, or holds one that can (what is not written out, a name's
    value, a call's, is never read into here)."""
    return isinstance(node, (ast.List, ast.Dict, ast.Set)) or \
        isinstance(node, ast.Tuple) and any(map(_mutable, node.elts))


def _contents(values: list[ast.AST]) -> list[ast.AST]:
    return [c for v in values for c in (v.values if isinstance(v, ast.Dict) else getattr(v, "elts", ())) if c]


def _displays(node: ast.AST) -> list[ast.AST]:
    """A display and every display written out in it."""
    found, todo = [], [node]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
            found.append(node)
            todo += [*node.values, *(k for k in node.keys if k)] if isinstance(node, ast.Dict) else node.elts
    return found


def _replaceable_of(tree: ast.Module) -> frozenset[str]:
    """A module's own names that code of this module could replace in a module of the submission (given
    the module object, a parameter may be it): an attribute stored into or deleted, a name handed to
    ``setattr``, ``delattr`` or ``__setattr__``, a name imported under another; every name (``_EVERY``),
    where ``vars`` or a ``__dict__`` is read, or a ``setattr`` is given a name not written out (the module's
    own reading reads that name: ``LiteralStrings``)."""
    names, setting = _setters(tree)
    return _EVERY if setting else names


def _setters(tree: ast.Module) -> tuple[frozenset[str], tuple[ast.AST, ...]]:
    """``_replaceable_of``'s names written out, and the names given to ``setattr`` (...) not written out."""
    found = tree.__dict__.get("_replaceable")
    if found is not None:
        return found
    names: set[str] = set()
    renamed: set[str] = set()
    setting: list[ast.AST] = []
    own_fields = _own_fields_set(tree) | _namespaces_only_read(tree)
    for node in walk(tree):
        if id(node) in own_fields:
            continue  # a dataclass's own fields set (``for f in fields(o): setattr(o, f.name, ...)``): no module's;
            # a namespace only read (``**vars(self)``, ``dict(x.__dict__)``): no name bound through it
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.attr)
        elif isinstance(node, ast.Attribute) and node.attr == "__dict__":
            names = _EVERY
            break
        elif isinstance(node, ast.Call) and (isinstance(node.func, ast.Name) and node.func.id in (
                "vars", "setattr", "delattr") or isinstance(node.func, ast.Attribute)
                and node.func.attr in ("__setattr__", "__delattr__")):
            named = node.args[1:2] if isinstance(node.func, ast.Name) or len(node.args) >= 3 else node.args[:1]
            if isinstance(node.func, ast.Name) and node.func.id == "vars" or not named \
                    or isinstance(named[0], ast.Starred):
                names = _EVERY
                break
            if isinstance(named[0], ast.Constant) and isinstance(named[0].value, str):
                names.add(named[0].value)
            else:
                setting.append(named[0])
        elif isinstance(node, ast.alias) and node.asname and node.asname != node.name:
            renamed.add(node.name)
    tree._renamed_only = frozenset() if names is _EVERY else frozenset(renamed - names)
    found = (names, ()) if names is _EVERY else (frozenset(names | renamed), tuple(setting))
    tree._replaceable = found
    return found


# built-ins that read a mapping's keys, or make text of it, where the module binds none of these names
_KEYS_OR_TEXT = frozenset(["sorted", "list", "tuple", "set", "frozenset", "len", "repr", "str", "print"])


def _namespaces_only_read(tree: ast.Module) -> set[int]:
    """The ``vars(x)`` calls and ``x.__dict__`` reads through which no name can be bound and no object of the
    namespace changed: its keys or its text only (a loop over it, ``in``, ``.keys()``, an f-string's value,
    ``sorted(...)``, ``repr(...)``); or, where ``x`` is the method's own object (``vars(self)``: a module's tables
    are not among its values unless named where they are put there), any reading use (an item, ``.items()``, a
    ``**`` in a call, ``dict(...)``). Built-ins count where the module does not rebind them."""
    bound = {n.id for n in walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)} \
        | {n.name for n in walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))} \
        | {(n.asname or n.name).split(".")[0] for n in walk(tree) if isinstance(n, ast.alias)} \
        | {n.arg for n in walk(tree) if isinstance(n, ast.arg)}
    parents = {id(child): parent for parent in walk(tree) for child in ast.iter_child_nodes(parent)}
    found: set[int] = set()
    for node in walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "vars" \
                and len(node.args) == 1 and not node.keywords:
            owner = node.args[0]
        elif isinstance(node, ast.Attribute) and node.attr == "__dict__" and isinstance(node.ctx, ast.Load):
            owner = node.value
        else:
            continue
        parent = parents.get(id(node))
        called = isinstance(parent, ast.Attribute) and isinstance(parents.get(id(parent)), ast.Call) \
            and parents[id(parent)].func is parent
        keys_or_text = isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is node \
            or isinstance(parent, ast.Compare) and node in parent.comparators \
            and all(isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops) \
            or isinstance(parent, ast.FormattedValue) \
            or called and parent.attr == "keys" \
            or isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) \
            and parent.func.id in _KEYS_OR_TEXT and parent.func.id not in bound and node in parent.args
        read = isinstance(parent, ast.keyword) and parent.arg is None \
            or isinstance(parent, ast.Subscript) and parent.value is node and isinstance(parent.ctx, ast.Load) \
            or called and parent.attr in ("items", "values", "get", "copy") \
            or isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "dict" \
            and "dict" not in bound and node in parent.args
        if keys_or_text or read and _own_object(owner, parents):
            found.add(id(node))
    return found


def _own_object(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """Whether ``node`` is the first parameter of the method it is read in (a def in a class body, not a static
    method), never bound again there."""
    function = parents.get(id(node))
    while function is not None and not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        function = parents.get(id(function))
    if not isinstance(node, ast.Name) or not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) \
            or not isinstance(parents.get(id(function)), ast.ClassDef) or not function.args.args \
            or any(isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod")
                   for d in function.decorator_list):
        return False
    name = function.args.args[0].arg
    return node.id == name and not any(isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
                                       for n in walk(function))


def _renamed_only(tree: ast.Module) -> frozenset[str]:
    """The names ``_setters`` counts only because the module imports them under another name (a table's items
    may be changed through the new name; a constant cannot be)."""
    _setters(tree)
    return tree._renamed_only


def _own_fields_set(tree: ast.Module) -> set[int]:
    """The ``setattr`` calls that set a dataclass's own fields: ``setattr(o, f.name, ...)`` inside ``for f in
    fields(o)`` (or with ``f`` at the place of ``fields(o)`` in ``zip(...)``), neither ``o`` nor ``f`` bound again
    in the loop. ``o`` is then what ``fields`` was handed, a dataclass or an instance of one (``fields`` of
    anything else raises first), never a module. (Whether ``fields`` and ``zip`` are the library's is the
    tamper reading's to say: it refuses the line otherwise.)"""
    found: set[int] = set()
    loops = [(n, n.target, n.iter) for n in walk(tree) if isinstance(n, ast.For)] + [
        (n, g.target, g.iter) for n in walk(tree) if isinstance(n, COMPREHENSIONS) for g in n.generators]
    for region, target, iterable in loops:
        zipped = isinstance(target, ast.Tuple) and isinstance(iterable, ast.Call) and not iterable.keywords \
            and isinstance(iterable.func, ast.Name) and iterable.func.id == "zip"
        for name, call in [(target, iterable)] if isinstance(target, ast.Name) else \
                zip(target.elts, iterable.args) if zipped else []:
            if isinstance(call, ast.Call) and len(call.args) == 1 and isinstance(call.args[0], ast.Call) \
                    and isinstance(call.args[0].func, ast.Name) and call.args[0].func.id == "type" \
                    and len(call.args[0].args) == 1 and isinstance(call.args[0].args[0], ast.Name):
                call = ast.Call(call.func, [call.args[0].args[0]], [])  # fields(type(o)): o's own fields
            if not (isinstance(name, ast.Name) and isinstance(call, ast.Call) and len(call.args) == 1
                    and isinstance(call.args[0], ast.Name) and not call.keywords and (
                        isinstance(call.func, ast.Name) and call.func.id == "fields"
                        or isinstance(call.func, ast.Attribute) and call.func.attr == "fields")):
                continue
            held = {name.id, call.args[0].id}
            if any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id in held and n is not name
                   for n in walk(region)):
                continue
            found.update(id(n) for n in walk(region) if isinstance(n, ast.Call) and _sets_by_name(n)
                         and len(n.args) >= 2 and isinstance(n.args[0], ast.Name)
                         and n.args[0].id == call.args[0].id and isinstance(n.args[1], ast.Attribute)
                         and n.args[1].attr == "name" and isinstance(n.args[1].value, ast.Name)
                         and n.args[1].value.id == name.id)
    return found


def _sets_by_name(call: ast.Call) -> bool:
    """``setattr(o, name, v)`` or ``object.__setattr__(o, name, v)`` (a frozen dataclass's own)."""
    return isinstance(call.func, ast.Name) and call.func.id == "setattr" or isinstance(call.func, ast.Attribute) \
        and call.func.attr == "__setattr__" and isinstance(call.func.value, ast.Name) and call.func.value.id == "object"


def _constants(tree: ast.Module) -> list[ast.Constant]:
    """A module's strings written out, read once and kept on its tree."""
    found = tree.__dict__.get("_strings")
    if found is None:
        found = [n for n in walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        tree._strings = found
    return found


def _scanned(tree: ast.Module) -> _Module:
    """The module's scopes, read once and kept on its tree."""
    module = tree.__dict__.get("_scopes")
    if module is None:
        module = _Module(tree)
        module.scan()
        tree._scopes = module
    return module


def _hands_out_locals(tree: ast.Module) -> bool:
    """Whether the module names ``locals``: a function's ``locals()`` hands out its names' objects (and its
    closure's) as a dict, through which a table or a dict it holds can be changed unseen
    (``locals()["names"].append(...)``), so no such name of a function of it is read as written."""
    return "locals" in _index(tree)


def _index(tree: ast.Module) -> dict[str, list[ast.AST]]:
    """Where a module names each name: its reads of the name, its attributes of that name, its imports of it."""
    index = tree.__dict__.get("_names")
    if index is None:
        index = {}
        for node in walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                index.setdefault(node.id, []).append(node)
            elif isinstance(node, ast.Attribute):
                index.setdefault(node.attr, []).append(node)
            elif isinstance(node, ast.alias):
                index.setdefault(node.name, []).append(node)
        tree._names = index
    return index


# the types a dataclass's field read by the readings may have (``weights_only: bool = True``), ``X | None`` too
FIELD_TYPES = frozenset(["bool", "int", "float", "str", "bytes"])


def _field_statement(statement: ast.stmt) -> bool:
    """``name: type [= value]`` in a class body: an annotation Python records as the class's (a parenthesised
    target, ``(name): type``, records none, and is no field)."""
    return isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) and statement.simple == 1


def _texts(tree: ast.Module) -> frozenset[str]:
    """Every string a module writes out, each dotted part of one (``attrgetter("a.b")`` reads ``b``), and each
    piece of one it splits (``"real _get".split()``: the names a reading reads it as, ``_is_split``), but the
    names its ``__all__`` lists (what a star import of it brings is read where it is used)."""
    found = tree.__dict__.get("_texts")
    if found is None:
        listed = {id(n) for statement in tree.body if _names_all(statement) for n in walk(statement)}
        strings = [n.value for n in walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                   and id(n) not in listed]
        split = [piece for n in walk(tree) if isinstance(n, ast.Call) and _is_split(n)
                 for piece in n.func.value.value.split(n.args[0].value if n.args else None)]
        found = frozenset(part.strip() for text in [*strings, *split] for part in (text, *text.split(".")))
        tree._texts = found
    return found


def _names_all(statement: ast.stmt) -> bool:
    """``__all__ = [...]``, ``__all__ += [...]``, ``__all__: list[str] = [...]`` at a module's top."""
    targets = statement.targets if isinstance(statement, ast.Assign) else \
        [statement.target] if isinstance(statement, (ast.AugAssign, ast.AnnAssign)) else []
    return bool(targets) and all(isinstance(t, ast.Name) and t.id == "__all__" for t in targets)


class _Every(frozenset):
    def __contains__(self, item: object) -> bool:
        return True


_EVERY = _Every()
