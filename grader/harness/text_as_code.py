"""No text becomes code where the implementation runs: the runtime wall behind the source readings.

The readings (``grader.harness.tamper``, ``grader.harness.source``, the parts' audits) see the
submission's modules as written, and what a line of them calls by name. A library that turns text
into code runs whatever the text says, and the text can be built at run time: sympy's ``parse_expr``
(an ``eval`` with every builtin), a pickle whose ``__reduce__`` names ``exec``, ctypes'
``PyRun_SimpleString``, a code object made or unmarshalled from bytes. Such code is never read: it
can replace a function after its module was read, mute what a probe watches or rewrite a probe's
report. No list of such libraries can be complete, so this is an audit hook (``sys.addaudithook``:
it cannot be removed once added), installed before the implementation is imported, that refuses the
compile, unmarshal or construction of code from anything but:

* a module's file, imported: the text compiled is the file's text (or its cached bytecode), and the file lies
  where modules may (the implementation's folder, the installed libraries, the harness), never where code
  could write one while it runs;
* a library, while one of its modules is imported, compiling text (mpmath's operators, torch's templates),
  unless garbage is being collected or a finalizer runs;
* the generators whose text is made of identifiers: ``dataclasses`` (their ``__init__``, ``__eq__``,
  ...), ``collections.namedtuple``, jaxtyping's signature of a checked function, ``timeit.Timer`` of callables;
* ``ast.parse``, which makes a tree and runs nothing;
* the evaluation of a type (``typing.ForwardRef``, or any library's: names and subscripts, no call) and of
  jaxtyping's symbolic dimension (arithmetic on names, ``grader.harness.jaxtyping_guard``).

It also refuses a function the implementation makes of a code object (``type(f)(code, globals)``), and
setting ``TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD`` (however its name was built), which makes a ``torch.load`` that
names no ``weights_only`` run a checkpoint's pickle.

In a graded worker it refuses wherever the code comes from (a library function the submission hands to
a weakref's finalizer runs with none of its frames on the stack). At home, where pytest, hypothesis and
the tests run in the same process, it refuses only while a frame of the implementation is on the stack:
the same refusals for the student's code, none for the tests'; and torch's compiler (dynamo, fx, inductor)
may make code there, which a graded worker never runs (``adapters.compile_runs_as_written``).
"""

from __future__ import annotations

import ast
import gc
import os
import sys
import weakref
from typing import Any, Callable

from grader.harness import jaxtyping_guard

FORCE_UNSAFE_LOAD = "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"
_FINALIZE = weakref.finalize.__call__.__code__  # a finalizer's call: never a library's own import

_IMPORTING = "<frozen importlib._bootstrap"  # the import machinery's frames (and _bootstrap_external's)
_WATCHED = frozenset(["compile", "code.__new__", "marshal.loads", "marshal.load", "os.putenv", "function.__new__"])
_TYPE_NODES = (ast.Expression, ast.Name, ast.Attribute, ast.Subscript, ast.Tuple, ast.List, ast.Constant,
               ast.Load, ast.BinOp, ast.BitOr, ast.UnaryOp, ast.USub)


class TextAsCode(PermissionError):
    """What the hook raises where it refuses: the operation does not happen."""


class _Hook:
    def __init__(self) -> None:
        self.everywhere = False
        self.folders: tuple[str, ...] = ()  # the implementations' folders (at home: refused while on the stack)
        self.generators: dict[Any, Callable[[Any, Any], bool]] = {}  # code object -> is this call of it fine
        self.namespaces: dict[int, Callable[[Any, Any], bool]] = {}  # id(a module's globals) -> the same
        # whether garbage is being collected, kept in a cell of ``on_collection``'s closure: the collector's
        # callbacks are a list any code can read, and a bound method there would hand out this hook
        self.collecting, self.on_collection = _collection_watch()
        self.roots: tuple[str, ...] = ()
        self.home_roots: tuple[str, ...] = ()  # libraries installed elsewhere on this machine: at home only
        self.compiler: tuple[str, ...] = ("\0",)  # torch's compiler stack's folders (``_torch_compiler_folders``)

    # -- who may turn text into code ------------------------------------------------------------
    def learn_generators(self) -> None:
        """Who may compile text, and what: looked up by name where a Python version has them (dataclasses'
        generator is ``_create_fn`` in 3.11 and a builder's method in 3.13), never assumed."""
        import collections
        import dataclasses
        import timeit
        import typing

        self.generators = {ast.parse.__code__: lambda text, frame: True}
        self.namespaces = {
            # dataclasses' methods, written by dataclasses' own code (called directly, a private generator would
            # compile any body it is handed)
            id(dataclasses.__dict__): lambda text, frame: _called_from(frame, dataclasses.__dict__),
            # a named tuple's __new__, of field names it checked are identifiers
            id(collections.__dict__): lambda text, frame: frame.f_code.co_name == "namedtuple",
            id(typing.__dict__): lambda text, frame: _type_expression(text),
        }
        try:
            import annotationlib  # (Python 3.14: annotations' forward references live there)
        except ImportError:
            pass
        else:
            self.namespaces[id(annotationlib.__dict__)] = lambda text, frame: _type_expression(text)
        # timeit.Timer of callables (what the harness and students time a product with): its fixed template
        timed = {"pass", "pass\npass"} | {
            timeit.template.format(stmt=stmt, setup=setup, init=init)
            for stmt in ("pass", "_stmt()") for setup in ("pass", "_setup()")
            for init in ("", ", _setup=_setup", ", _stmt=_stmt", ", _setup=_setup, _stmt=_stmt")}
        self.namespaces[id(timeit.__dict__)] = lambda text, frame: _text(text) in timed
        try:
            from jaxtyping import _array_types, _decorator
        except ImportError:
            return
        check_dims = getattr(_array_types, "_check_dims", None)
        signature = getattr(_decorator, "_make_fn_with_signature", None)
        if check_dims is not None:
            self.generators[check_dims.__code__] = lambda text, frame: _dimension(text)
        if signature is not None:
            self.generators[signature.__code__] = lambda text, frame: _called_from(frame, _decorator.__dict__)

    def learn_roots(self) -> None:
        """Where an imported file may lie for its text (or its bytecode) to be compiled: the Python
        installation's libraries and the harness, besides the implementations' folders; never a folder
        code can write to while it runs (its /tmp)."""
        import sysconfig

        import grader

        paths = sysconfig.get_paths()
        found = [paths.get(key) for key in ("stdlib", "platstdlib", "purelib", "platlib")]
        found += [p for p in sys.path if "site-packages" in p or "dist-packages" in p]
        found += list(grader.__path__)
        self.roots = tuple(sorted({os.path.realpath(p).rstrip(os.sep) + os.sep for p in found if p}))
        # at home, also where a student's libraries were put by other means: a folder pip installed into
        # (--target: it holds their metadata) or one PYTHONPATH names (a lab's vendored libraries). A graded
        # worker runs on the grader's own installation, whose libraries all lie in the roots above
        elsewhere = [p for p in sys.path if p and _holds_installed(p)]
        elsewhere += [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        self.home_roots = tuple(sorted({os.path.realpath(p).rstrip(os.sep) + os.sep for p in elsewhere}))

    def readable_file(self, path: Any) -> bool:
        """Whether ``path`` is a file of the implementation or of an installed library."""
        if not isinstance(path, str):
            return False
        real = os.path.realpath(path)
        return real.startswith(self.roots) or real.startswith(self.folders) \
            or not self.everywhere and real.startswith(self.home_roots)

    def allowed_compile(self, source: Any, filename: Any, frame: Any) -> bool:
        if frame is None:
            return False
        check = self.generators.get(frame.f_code) or self.namespaces.get(id(frame.f_globals))
        if check is not None and check(source, frame):
            return True
        if frame.f_code.co_filename.startswith(_IMPORTING) and self.readable_file(filename) \
                and _file_text(source, filename):  # an import: the file's own text, where modules may lie
            return True
        if self.own(frame):
            return False
        # a library evaluating a type's text (torch reads a custom op's string annotations), or at home torch's
        # compiler making its graph's code (a graded worker runs compiled code as written: it never does)
        return _type_expression(source) or not self.everywhere and self.torch_compiler(frame) \
            or self.module_making_itself(frame)

    def torch_compiler(self, frame: Any) -> bool:
        """Whether torch's compiler is at work below ``frame``, before any frame of the implementation."""
        depth = 0
        while frame is not None and depth < 256:
            if frame.f_code.co_filename.startswith(self.compiler):
                return True
            if self.own(frame):
                return False
            frame, depth = frame.f_back, depth + 1
        return False

    def module_making_itself(self, frame: Any) -> bool:
        """Whether a library, being imported, compiles text (mpmath writes its number type's operators at
        import, torch's inductor its kernels' jinja2 templates, torch.distributed a module from a template):
        every frame from the compile up to the nearest import is a library's file, that import runs a
        library's module, and no garbage collection is under way (a finalizer the submission handed a
        library's evaluator could run in the middle of any import)."""
        if self.collecting[0] or not any(callback is self.on_collection for callback in gc.callbacks):
            return False
        outer, depth = frame, 0
        while outer is not None and depth < 256:
            filename = outer.f_code.co_filename
            if self.own(outer) or filename.startswith("<") or outer.f_code is _FINALIZE:
                return False
            caller = outer.f_back
            if outer.f_code.co_name == "<module>" and caller is not None \
                    and caller.f_code.co_filename.startswith(_IMPORTING):
                return True
            outer, depth = caller, depth + 1
        return False

    def allowed_unmarshal(self, frame: Any) -> bool:
        """An import reading a module's cached bytecode, from beside a file where modules may lie."""
        if frame is None or not frame.f_code.co_filename.startswith(_IMPORTING):
            return False
        local = frame.f_locals
        paths = [local.get("bytecode_path"), local.get("source_path")]
        return any(p is not None for p in paths) and all(p is None or self.readable_file(p) for p in paths)

    def own(self, frame: Any) -> bool:
        return frame is not None and frame.f_code.co_filename.startswith(self.folders)

    def nearest_own(self, frame: Any) -> Any:
        """The innermost frame of the implementation at or below ``frame`` on the stack, or None."""
        while frame is not None and not self.own(frame):
            frame = frame.f_back
        return frame

    # -- where it applies -------------------------------------------------------------------------
    def watched(self, frame: Any) -> bool:
        return self.everywhere or self.nearest_own(frame) is not None

    def __call__(self, event: str, args: tuple) -> None:
        if event not in _WATCHED:
            return
        try:
            frame = sys._getframe(1)
        except ValueError:
            frame = None
        if event == "os.putenv":
            key = args[0] if args else b""
            name = os.fsdecode(key) if isinstance(key, (bytes, str)) else ""
            if name.strip().upper() == FORCE_UNSAFE_LOAD:
                own = self.own_frame(frame)
                raise TextAsCode(f"setting {FORCE_UNSAFE_LOAD} is refused{f' ({own})' if own else ''}: it makes "
                                 "torch.load run a checkpoint's pickle (code) wherever weights_only is not written out")
            return
        if not self.watched(frame):
            return
        if event == "compile":
            source, filename = (list(args) + [None, None])[:2]
            if self.allowed_compile(source, filename, frame):
                return
            raise TextAsCode(self.message(f"compiled {_shown(source)} as code", frame))
        if event.startswith("marshal"):
            if self.allowed_unmarshal(frame):
                return
            raise TextAsCode(self.message("made code from bytes", frame))
        if event == "function.__new__":  # a function of a code object it was handed, called for by the submission
            if not self.own(frame):
                return
            raise TextAsCode(self.message("made a function of a code object", frame))
        if not self.everywhere and not self.own(frame) and self.torch_compiler(frame):
            return  # (torch's compiler rewrites bytecode at home)
        raise TextAsCode(self.message("made a code object", frame))

    def message(self, what: str, frame: Any) -> str:
        caller = _describe(frame)
        own = self.own_frame(frame)
        where = f" (called from {own})" if own and own != caller else ""
        # timeit compiles a statement given as text (torch.utils.benchmark's Timer hands it one whatever it was
        # given): the way out is a callable, or a clock read around a plain loop
        timer = " (a timer's statement given as text is compiled: give timeit.Timer a function, or read " \
            "time.perf_counter() around a plain loop)" if frame.f_globals.get("__name__") == "timeit" else ""
        return (f"{caller} {what}{where}: where your code is graded it runs only from the .py files of "
                "assignment/, as they are read, so a library that turns text into code (eval, exec, compile, "
                "a parser that evaluates, a pickle that names a function, code built from bytes) is refused "
                f"there, and here while your functions run{timer}")

    def own_frame(self, frame: Any) -> str:
        own = self.nearest_own(frame)
        return _describe(own) if own is not None else ""


def _collection_watch() -> tuple[list, Callable[[str, Any], None]]:
    """A flag, and the collector's callback that sets it: a plain function holding nothing but the flag."""
    collecting = [False]

    def on_collection(phase: str, info: Any) -> None:
        if type(info) is dict and "generation" in info:  # as the collector calls it, not a finalizer
            collecting[0] = phase == "start"

    return collecting, on_collection


def _called_from(frame: Any, namespace: dict) -> bool:
    """Whether the generator's caller is its own module's code (not a submission calling it by its private
    name with a body of its own)."""
    caller = frame.f_back
    return caller is not None and caller.f_globals is namespace


def _text(source: Any) -> str | None:
    if isinstance(source, bytes):
        return source.decode("utf-8", "replace")
    return source if isinstance(source, str) else None


def _type_expression(source: Any) -> bool:
    """An annotation's string: names, attributes, subscripts, constants and ``|``; no call, no operator else."""
    text = _text(source)
    if text is None or len(text) > 2000:
        return False
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return all(isinstance(node, _TYPE_NODES)
               and not (isinstance(node, ast.BinOp) and not isinstance(node.op, ast.BitOr))
               for node in ast.walk(tree))


def _dimension(source: Any) -> bool:
    """jaxtyping's symbolic dimension: arithmetic on names, evaluated as itself or as an f-string of itself."""
    text = _text(source)
    if text is None:
        return False
    for quote in ("'", '"'):
        if text.startswith("f" + quote) and text.endswith(quote) and len(text) >= 3:
            text = text[2:-1]
            break
    return jaxtyping_guard.arithmetic(text)


def _file_text(source: Any, filename: Any) -> bool:
    """Whether ``source`` is the text of the file ``filename`` (an import compiling a module's file)."""
    if not isinstance(filename, str) or not isinstance(source, (bytes, str)):
        return False
    try:
        with open(filename, "rb") as handle:
            data = handle.read()
    except OSError:
        return False
    text = source.encode("utf-8") if isinstance(source, str) else source
    return data == text or data.decode("utf-8-sig", "replace").encode("utf-8") == text


def _shown(source: Any) -> str:
    text = _text(source)
    if text is None:
        return f"a {type(source).__name__}"
    text = " ".join(text.split())
    return repr(text[:60] + ("..." if len(text) > 60 else ""))


def _describe(frame: Any) -> str:
    if frame is None:
        return "code outside any function"
    name = frame.f_globals.get("__name__") if type(frame.f_globals) is dict else None
    name = name if type(name) is str else os.path.basename(str(frame.f_code.co_filename))
    return f"{name}.{frame.f_code.co_name} (line {frame.f_lineno})"


def _torch_compiler_folders() -> tuple[str, ...]:
    """torch's compiler stack (dynamo, fx, inductor), where torch is installed: at home it makes code of a traced
    graph (a graded worker runs compiled functions as written, and none of it runs there)."""
    import importlib.util

    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        return ("\0",)
    torch = os.path.realpath(list(spec.submodule_search_locations)[0])
    return tuple(os.path.join(torch, sub) + os.sep for sub in ("_dynamo", "fx", "_inductor", "_functorch"))


def _holds_installed(folder: str) -> bool:
    """Whether a folder holds installed distributions' metadata (``*.dist-info``, ``*.egg-info``), as
    site-packages does: where ``pip install --target`` put libraries."""
    try:
        return any(name.endswith((".dist-info", ".egg-info")) for name in os.listdir(folder))
    except OSError:
        return False


_HOOK = _Hook()
_installed = False


def install(folder: str | None = None, everywhere: bool = False) -> None:
    """Refuse text turned into code in this process: while ``folder``'s code is on the stack, or
    ``everywhere`` (a graded worker). Idempotent; the hook itself is added once and never removed."""
    global _installed
    if folder is not None:
        prefix = os.path.realpath(folder).rstrip(os.sep) + os.sep
        if prefix not in _HOOK.folders:
            _HOOK.folders = (*_HOOK.folders, prefix, folder.rstrip(os.sep) + os.sep)
    _HOOK.everywhere = _HOOK.everywhere or everywhere
    if not _installed:
        _HOOK.learn_generators()
        _HOOK.learn_roots()
        _HOOK.compiler = _torch_compiler_folders()
        gc.callbacks.append(_HOOK.on_collection)
        sys.addaudithook(_HOOK)
        _installed = True
