"""Which names in a submission's module can only hold strings written out in its source.

``grader.harness.tamper`` refuses a ``getattr`` (``hasattr``, ``setattr``, ...) of a name built at run
time: ``"__glo" + "bals__"`` leads anywhere. A name that can only ever hold strings written out in the
source is read as those strings instead, each checked as a name written out would be:

    for name in ("weight", "bias"): getattr(layer, name)              a loop over literal strings
    for name, bits, man in LAYOUTS: getattr(torch, name)               a column of a literal table's rows
    for n, f in TABLE.items(): ...; for n in TABLE: ...                a literal dict's keys (or values)
    for n in "mm addmm bmm".split(): ...                               a literal string split
    for i, n in enumerate(NAMES): ...                                  enumerate, sorted, reversed, list, tuple
    def op(name): return getattr(aten, name)  ...  op("mm")            a parameter every call gives a literal
    NAMES[key]                                                         an item of a literal table

The reading is sound, not complete. A name counts only if every binding of it in its scope gives it
such strings (a parameter, another assignment, an ``except ... as``, an import of the same name in
that scope make it a name built at run time). A table counts only if it is bound once and only ever
read where it is used (iterated, indexed, ``.items()``, ``.keys()``, ``.values()``, ``.get()``, ``in``,
``len``): never handed on, where it could be changed. A helper counts only if it is bound once and only
ever called, with its arguments written out (no ``*args``), never handed on or decorated. A module's
own names (a table, a loop's name, a helper) count only if no other module of the submission stores
into or deletes an attribute of that name, passes that name to ``setattr``, imports it under another
name, or calls ``vars`` (a built-in read, ``sorted``, likewise); a helper another module names is read
as called with anything.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from grader.harness.source import walk

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
SCOPES = (ast.Module, ast.ClassDef, *FUNCTIONS, *COMPREHENSIONS)
# a literal table's methods that only read it, and what each hands back
TABLE_READS = frozenset(["items", "keys", "values", "get", "index", "count"])
# built-ins whose rows are their argument's (enumerate's with a count before each)
WRAPPERS = frozenset(["enumerate", "sorted", "reversed", "list", "tuple"])
ROUNDS = 8  # a name given by a name given by ...: deeper chains are read as built at run time


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

    def scan(self) -> None:
        todo: list[tuple[ast.AST, ast.AST]] = [(self.tree, self.tree)]
        self.enclosing[id(self.tree)] = None
        names: list[tuple[str, ast.AST, _Binding]] = []  # (name, scope it appears in, binding)
        loads: list[tuple[ast.Name, ast.AST]] = []
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
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                kind = "global" if isinstance(node, ast.Global) else "nonlocal"
                self.declared.setdefault(id(scope), {}).update({name: kind for name in node.names})
            elif isinstance(node, ast.alias):
                local = node.asname or node.name.split(".")[0]
                if local != "*":
                    names.append((local, scope, _Binding("import")))
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
        for node, scope in loads:
            self.owner[id(node)] = self.resolve(node.id, scope)
            self.loads.setdefault(node.id, []).append(node)

    def _open(self, node: ast.AST, scope: ast.AST, todo: list, names: list) -> None:
        """A scope inside ``scope``: what of it is evaluated outside (a def's decorators, defaults and
        annotations, a comprehension's first iterable) goes to ``scope``, the rest inside."""
        self.enclosing[id(node)] = scope
        inside: list[ast.AST] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append((node.name, scope, _Binding("def", node)
                          if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.decorator_list
                          else _Binding("other")))
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
        return any(name in names for names in self.bound.values())


class LiteralStrings:
    """For one module of a submission (read beside the others): the strings an expression can take, where
    it can only take strings written out in the source (``of``)."""

    def __init__(self, tree: ast.Module, others: list[ast.Module]) -> None:
        # each tree is scanned and indexed once, kept on it (a submission's modules are read beside each
        # other: every reading here stays linear in the source, whatever it holds)
        self.module = _scanned(tree)
        self.others = others
        self.tables: dict[tuple[int, str], ast.AST] = {}  # (scope, name) -> a literal table bound once
        self.strings: dict[tuple[int, str], list[str]] = {}  # (scope, name) -> the strings it can hold
        self._every = any(_replaceable_of(t) is _EVERY for t in [tree, *others])
        self._given_now: dict[int, dict[str, list[str] | None]] = {}  # this round's, by helper
        self._find_tables()
        for _ in range(ROUNDS):
            self._given_now = {}
            found = {key: strings for key in self.module.bindings if (strings := self._name_strings(key)) is not None}
            if found == self.strings:
                break
            self.strings = found

    def _replaceable(self, name: str) -> bool:
        """Whether code of the submission could replace this module's name ``name`` (``_replaceable_of``)."""
        return self._every or any(name in _replaceable_of(t) for t in [self.module.tree, *self.others])

    def _named_elsewhere(self, name: str) -> bool:
        return any(name in _index(other) for other in self.others)

    # what an expression can be
    def of(self, node: ast.AST) -> list[str] | None:
        """The strings ``node`` can evaluate to, or None where it may be any (built at run time)."""
        if isinstance(node, ast.Constant):
            return [node.value] if isinstance(node.value, str) else None
        if isinstance(node, ast.Name):
            owner = self.module.owner.get(id(node))
            return None if owner is None else self.strings.get((id(owner), node.id))
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):  # an item of a literal table
            items = self._table_items(node.value)
            return _column(items, ()) if items is not None else None
        return None

    def rows(self, node: ast.AST) -> list[ast.AST] | None:
        """The items iterating ``node`` gives, each an expression written out, or None where unknown."""
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return None if any(isinstance(e, ast.Starred) for e in node.elts) else list(node.elts)
        if isinstance(node, ast.Dict):
            return None if any(k is None for k in node.keys) else list(node.keys)
        if isinstance(node, ast.Name):
            table = self._table(node)
            if isinstance(table, ast.Dict):
                return list(table.keys)
            return self.rows(table) if table is not None else None
        if not isinstance(node, ast.Call) or node.keywords and not _is_split(node):
            return None
        func = node.func
        if _is_split(node):
            separator = node.args[0].value if node.args else None
            return [ast.Constant(text) for text in func.value.value.split(separator)]
        if isinstance(func, ast.Attribute) and func.attr in ("items", "keys", "values") and not node.args:
            table = self._table(func.value)
            if not isinstance(table, ast.Dict):
                return None
            return list(table.keys) if func.attr == "keys" else list(table.values) if func.attr == "values" else \
                [ast.Tuple([k, v]) for k, v in zip(table.keys, table.values)]
        # the built-in itself: bound nowhere in the module, and no code of the submission puts a module
        # attribute of that name in its place (``strides.sorted = ...`` from another module)
        if isinstance(func, ast.Name) and func.id in WRAPPERS and len(node.args) == 1 \
                and not self.module.rebinds_builtin(func.id) and not self._replaceable(func.id):
            rows = self.rows(node.args[0])
            if rows is None or func.id != "enumerate":
                return rows
            return [ast.Tuple([ast.Constant(i), row]) for i, row in enumerate(rows)]
        return None

    def loop_sources(self, node: ast.Name) -> list[ast.AST] | None:
        """The iterables of every binding of a read name, where each binds it as a loop's whole target;
        else None."""
        bindings = self._bindings_of(node)
        if not bindings or any(b.kind != "loop" or b.path for b in bindings):
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
            rows = self._rows(binding.source)
            return None if rows is None else _column(rows, binding.path)
        if binding.kind == "assign":
            if binding.path:
                return _column([binding.source], binding.path)
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

    def _param_strings(self, binding: _Binding) -> list[str] | None:
        """A parameter of a helper bound once, never decorated, only ever called (and not a method): the
        strings every call gives it (or its default)."""
        function = binding.source
        if id(function) not in self._given_now:
            self._given_now[id(function)] = self._helper_params(function)
        return self._given_now[id(function)].get(binding.name)

    def _helper_params(self, function: ast.AST) -> dict[str, list[str] | None]:
        """Each parameter of a helper: the strings its calls give it (None where one may give anything)."""
        if isinstance(function, ast.Lambda):
            return {}
        owner = self.module.enclosing[id(function)]
        defs = self.module.bindings.get((id(owner), function.name), [])
        if len(defs) != 1 or defs[0].kind != "def" or defs[0].source is not function or isinstance(owner, ast.ClassDef):
            return {}
        if owner is self.module.tree and (self._replaceable(function.name) or self._named_elsewhere(function.name)):
            return {}  # another module could call it with anything
        calls = []
        for node in self.module.loads.get(function.name, []):
            if self.module.owner.get(id(node)) is owner:
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
        """Names bound once, by ``=``, to a literal tuple, list, set or dict, and only ever read."""
        for key, bindings in self.module.bindings.items():
            if len(bindings) != 1 or bindings[0].kind != "assign" or bindings[0].path:
                continue
            value = bindings[0].source
            if not isinstance(value, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
                continue
            if key[0] == id(self.module.tree) and self._replaceable(key[1]):
                continue
            if all(self._only_read(node) for node in self.module.loads.get(key[1], [])
                   if self.module.owner.get(id(node)) is not None and id(self.module.owner[id(node)]) == key[0]):
                if key[0] != id(self.module.tree) or self._only_read_elsewhere(key[1]):
                    self.tables[key] = value

    def _only_read(self, node: ast.AST, module: _Module | None = None) -> bool:
        parent = (module or self.module).parent.get(id(node))
        if isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is node:
            return True
        if isinstance(parent, ast.Subscript) and parent.value is node and isinstance(parent.ctx, ast.Load):
            return True
        if isinstance(parent, ast.Attribute) and parent.value is node and parent.attr in TABLE_READS:
            holder = (module or self.module).parent.get(id(parent))
            return isinstance(holder, ast.Call) and holder.func is parent
        if isinstance(parent, ast.Compare) and node in parent.comparators and all(
                isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops):
            return True
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.args == [node] \
                and parent.func.id in ("len", *WRAPPERS) and not parent.keywords:
            holder = (module or self.module).parent.get(id(parent))
            return parent.func.id == "len" or (isinstance(holder, (ast.For, ast.comprehension))
                                               and holder.iter is parent)
        return False

    def _only_read_elsewhere(self, name: str) -> bool:
        """Another module that imports a table by its name only ever reads it (by that name)."""
        return all(self._only_read(node, _scanned(other)) for other in self.others
                   for node in _index(other).get(name, ()) if not isinstance(node, ast.alias))

    def _table(self, node: ast.AST) -> ast.AST | None:
        if not isinstance(node, ast.Name):
            return None
        owner = self.module.owner.get(id(node))
        return None if owner is None else self.tables.get((id(owner), node.id))

    def _table_items(self, node: ast.AST) -> list[ast.AST] | None:
        """What indexing a literal table gives: a sequence's items, a dict's values."""
        table = self._table(node)
        if isinstance(table, ast.Dict):
            return list(table.values)
        return list(table.elts) if isinstance(table, (ast.Tuple, ast.List)) else None


def _is_split(node: ast.Call) -> bool:
    func = node.func
    return isinstance(func, ast.Attribute) and func.attr == "split" and isinstance(func.value, ast.Constant) \
        and isinstance(func.value.value, str) and not node.keywords and len(node.args) <= 1 \
        and all(isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value for a in node.args)


def _column(rows: list[ast.AST], path: tuple[int, ...]) -> list[str] | None:
    """The strings at ``path`` in every row (rows of tuples, unpacked), or None where one is no string."""
    found: list[str] = []
    for row in rows:
        for index in path:  # into tuples only: a list in a table can be changed through the loop's name
            if not isinstance(row, ast.Tuple) or index >= len(row.elts) \
                    or any(isinstance(e, ast.Starred) for e in row.elts):
                return None
            row = row.elts[index]
        if not (isinstance(row, ast.Constant) and isinstance(row.value, str)):
            return None
        if row.value not in found:
            found.append(row.value)
    return found


def _replaceable_of(tree: ast.Module) -> frozenset[str]:
    """A module's own names that code of this module could replace in a module of the submission (given
    the module object, a parameter may be it): an attribute stored into or deleted, a name handed to
    ``setattr``, ``delattr`` or ``__setattr__``, a name imported under another; every name (``_EVERY``),
    where ``vars`` or a ``__dict__`` is read, or a ``setattr`` is given a name built at run time."""
    found = tree.__dict__.get("_replaceable")
    if found is not None:
        return found
    names: set[str] = set()
    for node in walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.attr)
        elif isinstance(node, ast.Attribute) and node.attr == "__dict__":
            names = _EVERY
            break
        elif isinstance(node, ast.Call) and (isinstance(node.func, ast.Name) and node.func.id in (
                "vars", "setattr", "delattr") or isinstance(node.func, ast.Attribute)
                and node.func.attr in ("__setattr__", "__delattr__")):
            named = node.args[1:2] if isinstance(node.func, ast.Name) or len(node.args) >= 3 else node.args[:1]
            if isinstance(node.func, ast.Name) and node.func.id == "vars" or not (
                    named and isinstance(named[0], ast.Constant) and isinstance(named[0].value, str)):
                names = _EVERY
                break
            names.add(named[0].value)
        elif isinstance(node, ast.alias) and node.asname and node.asname != node.name:
            names.add(node.name)
    found = names if names is _EVERY else frozenset(names)
    tree._replaceable = found
    return found


def _scanned(tree: ast.Module) -> _Module:
    """The module's scopes, read once and kept on its tree."""
    module = tree.__dict__.get("_scopes")
    if module is None:
        module = _Module(tree)
        module.scan()
        tree._scopes = module
    return module


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


class _Every(frozenset):
    def __contains__(self, item: object) -> bool:
        return True


_EVERY = _Every()
