"""The implementation under test, as probes see it: modules looked up by short name.

An implementation is a package (``assignment`` from a student's folder, or the
staff ``reference``) that holds the spec's modules: ``strides``, ``dtypes``, ...
It is loaded by path, so a submission's ``assignment`` never mixes with another.
Module files placed directly in a folder (no ``assignment/`` package) are wrapped
into one by ``stage_submission``.
"""

from __future__ import annotations

import ast
import builtins
import codecs
import difflib
import functools
import importlib
import importlib.util
import io
import json
import os
import re
import stat
import sys
import tempfile
import tokenize
import traceback
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from grader.harness import jaxtyping_guard, text_as_code, warning_frames
from grader.harness.source import strip_main_blocks

MODULES = (
    "strides", "dtypes", "memory", "flops", "roofline",
    "named", "gradients", "model", "training", "mixed_precision",
)


# what ``Implementation.load_finding`` says of a file Python cannot compile, and of one not there
DOES_NOT_COMPILE = "does not compile"
NOT_IN_SUBMISSION = "is not in the submission"


class TimeLimit(BaseException):
    """A call's time limit ran out (the runner's alarm, ``runner.Expired``): said as that where it stops an
    import, not as an exception the module raised."""


class LoadError(Exception):
    """A module of the implementation does not import, or a name is missing."""

    def __init__(self, kind: str, function: str, detail: str) -> None:
        super().__init__(kind, function, detail)
        self.kind = kind  # "import" or "missing"
        self.function = function
        self.detail = detail


class Implementation:
    """Modules of one implementation, imported on first use."""

    def __init__(self, package: str, root: Path, *, only: str | None = None) -> None:
        self.package = package
        # this process imports this module alone (and what it imports): see ``transport.ALONE``
        self.only = only
        self.root = Path(root).resolve()  # folder holding the package folder
        self.package_dir = self.root / package
        self._modules: dict[str, ModuleType] = {}
        self._errors: dict[str, LoadError] = {}
        self._owned: dict[str, bool] = {}
        self._relative: dict[str, str] = {}
        self._sources: dict[str, str] | None = None
        self._findings: dict[tuple[str, str], str] = {}

    # -- loading ---------------------------------------------------------------
    def loaded(self) -> list[ModuleType]:
        """The implementation's modules imported so far."""
        return list(self._modules.values())

    def tried(self, short: str) -> bool:
        """Whether module ``short`` was imported already, or failed to."""
        return short in self._modules or short in self._errors

    def module(self, short: str) -> ModuleType:
        if short in self._modules:
            return self._modules[short]
        if short in self._errors:
            raise self._errors[short]
        if self.only is not None and short != self.only:  # the harness asked the wrong process
            raise RuntimeError(f"this process imports {self.package}/{self.only}.py alone, not {short}.py")
        if not (self.package_dir / f"{short}.py").exists():
            error = LoadError("missing", short, f"{self.package}/{short}.py is missing")
            self._errors[short] = error
            raise error
        try:
            self._ensure_package()
            mod = importlib.import_module(f"{self.package}.{short}")
        except BaseException as exc:  # SyntaxError, SystemExit at import, anything
            if isinstance(exc, KeyboardInterrupt):
                raise
            error = LoadError("import", short, self._import_error_text(short, exc))
            self._errors[short] = error
            raise error from None
        self._modules[short] = mod
        return mod

    def function(self, qualname: str) -> Callable[..., Any]:
        short, _, name = qualname.partition(".")
        mod = self.module(short)
        try:
            value = getattr(mod, name)
        except AttributeError:
            raise LoadError(
                "missing", qualname, f"{self.package}/{short}.py defines no `{name}`"
            ) from None
        return value

    def _ensure_package(self) -> None:
        jaxtyping_guard.install()  # before any of the implementation runs
        text_as_code.install(str(self.package_dir))  # and no text becomes code while it runs
        warning_frames.install()  # nor does a warning name who called it
        existing = sys.modules.get(self.package)
        if existing is not None:
            where = Path(getattr(existing, "__file__", "") or "").resolve().parent
            if where == self.package_dir:
                return
            # a different package of the same name: forget it and its modules
            for name in [n for n in sys.modules if n == self.package or n.startswith(self.package + ".")]:
                del sys.modules[name]
        init = self.package_dir / "__init__.py"
        if not init.exists():
            init.write_text("")
        refuse_other_encodings(init, self.package)
        spec = importlib.util.spec_from_file_location(
            self.package, init, submodule_search_locations=[str(self.package_dir)]
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[self.package] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[self.package]
            raise
        if not any(isinstance(f, _NoSubfolders) and f.package_dir == self.package_dir for f in sys.meta_path):
            sys.meta_path.insert(0, _NoSubfolders(self.package, self.package_dir))
            # flat-file submissions may import their siblings by bare name (`import dtypes`): last, as a
            # folder at the end of sys.path would be, and for the implementation's own imports only
            sys.meta_path.append(_Siblings(self.package_dir))
        _OnlyWhatGradingHas.install(self.package, self.package_dir)

    def _import_error_text(self, short: str, exc: BaseException) -> str:
        frames = [
            f for f in traceback.extract_tb(exc.__traceback__)
            if self.owns(f.filename)
        ]
        where = ""
        if isinstance(exc, SyntaxError) and exc.filename:
            where = f" ({self.relative(exc.filename)}, line {exc.lineno})"
        elif frames and not _staged_refusal(frames[-1].filename, exc):
            where = f" ({self.relative(frames[-1].filename)}, line {frames[-1].lineno})"
        if isinstance(exc, TimeLimit):  # a loop (or a long computation) at the module's top level
            return (f"{self.package}/{short}.py does not import: it was still running when the time limit ran "
                    f"out{where}. A module's top-level code runs when it is imported: a loop or a long "
                    f"computation belongs in a function")
        # a SyntaxError's text ends with its own "(file, line n)", in the file's bare name: said once, as above
        message = safe_str(exc.msg) if isinstance(exc, SyntaxError) and exc.filename and exc.msg else safe_str(exc)
        return f"{self.package}/{short}.py does not import: {type(exc).__name__}: {message}{where}"

    def source(self, short: str) -> str | None:
        """The text of one of its modules, read from disk, never run (None if there is none)."""
        path = self.package_dir / f"{short}.py"
        try:
            # as Python reads it: a byte-order mark is not part of the text (only UTF-8 imports at all)
            return path.read_text(encoding="utf-8-sig", errors="replace") if path.is_file() else None
        except OSError:
            return None

    def load_finding(self, qualname: str, kind: str) -> str:
        """What the files alone say of why ``qualname`` could not be loaded (``kind``: "import" or "missing"),
        read and compiled here, never run: words a grader may show at once, where the process that tried the
        import ran the implementation's code and is not believed. "" where the files say nothing of it. Once
        per question (a staged submission does not change while it is graded)."""
        if (qualname, kind) not in self._findings:
            self._findings[(qualname, kind)] = self._load_finding(qualname, kind)
        return self._findings[(qualname, kind)]

    def _load_finding(self, qualname: str, kind: str) -> str:
        short, _, name = qualname.partition(".")
        if not short.isidentifier():
            return ""
        path = f"{self.package}/{short}.py"
        text = self.source(short)
        if text is None:  # (said without the folder: loose files are graded as well as an assignment/ folder)
            others = {p.stem: p.name for p in self.package_dir.glob("*.py") if p.stem != short}
            # a module saved as text or under a capital extension (``strides.py.txt``, ``strides.PY``): not staged
            alike = [name for name in other_files(self.package_dir) if name.lower().startswith(f"{short}.py")]
            alike += [others[stem] for stem in others if short in stem.lower()]
            alike += [others[stem] for stem in difflib.get_close_matches(short, list(others), n=3, cutoff=0.75)
                      if others[stem] not in alike]
            named = f" (it has {', '.join(alike[:3])}: a module is graded under its own name alone)" if alike else ""
            return f"{short}.py {NOT_IN_SUBMISSION}{named}"
        init = self.source("__init__") or ""
        for where, code in ((f"{self.package}/__init__.py", init), (path, text)):  # (__init__.py is imported first)
            # staged in its place by the grader, not UTF-8 or of another coding line (``refusing_module``); or not
            # compiling
            why = _refusal(code) or _compiles(where, code)
            if why:
                return why + (", and every module is imported through it" if where != path else "")
        if kind == "import":
            for where, code in ((path, text), (f"{self.package}/__init__.py", init)):
                folder = self._folder_imported(code)
                if folder:  # graded as staged, never its folders: said from the source, as the import says it
                    return f"{where} imports {self.package}/{folder}/, a folder: " \
                        + FOLDERS_NOT_GRADED.format(self.package)
            first = f" (or {self.package}/__init__.py, which runs first)" if _has_code(init) else ""
            return f"{path} compiles: importing it failed as its top-level code ran{first}"
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return ""
        if name and not any(isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)
                            for node in tree.body) and name not in _bound_at_top(tree):
            return f"{path} has no def, class, assignment or import of `{name}` at its top level"
        return ""

    def _folder_imported(self, code: str) -> str:
        """A folder of the package that ``code`` imports (``from .helpers import x``, ``import
        assignment.helpers.y``, a flat submission's ``import helpers``), where there is no module of that name,
        as ``_NoSubfolders`` refuses it: "" where none."""
        try:
            tree = ast.parse(code)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return ""
        names = []
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level == 1 and node.module:
                    names.append(node.module)
                elif node.level == 1:
                    names += [alias.name for alias in node.names]
                elif node.level == 0 and node.module:  # (a flat submission's `from helpers import x` too)
                    names.append(node.module.removeprefix(f"{self.package}."))
            elif isinstance(node, ast.Import):
                names += [alias.name.removeprefix(f"{self.package}.") for alias in node.names]
        for name in names:
            first = name.partition(".")[0]
            if first.isidentifier() and _a_folder(self.package_dir, first):
                return first
        return ""

    def sources(self) -> dict[str, str]:
        """Every module of the package, by short name: the text, read from disk, never run (once: a
        staged submission does not change while it is graded)."""
        if self._sources is None:
            out = {}
            for path in sorted(self.package_dir.glob("*.py")):
                text = self.source(path.stem)
                if text is not None:
                    out[path.stem] = text
            self._sources = out
        return dict(self._sources)

    # -- telling its code from ours ---------------------------------------------
    def owns(self, filename: str) -> bool:
        # asked of every frame of every traceback: resolved once per file name, not per frame
        owned = self._owned.get(filename)
        if owned is None:
            try:
                owned = Path(filename).resolve().is_relative_to(self.package_dir)
            except (OSError, ValueError):
                owned = False
            self._owned[filename] = owned
        return owned

    def relative(self, filename: str) -> str:
        shown = self._relative.get(filename)
        if shown is None:
            try:
                shown = str(Path(filename).resolve().relative_to(self.root))
            except (OSError, ValueError):
                shown = filename
            self._relative[filename] = shown
        return shown


def _compiles(path: str, text: str) -> str:
    """"" where ``text`` compiles as an import compiles it (from the text: an AST object is held to a lower nesting
    limit); else what is wrong, with the line: the file's own words, nothing its code said when run."""
    try:
        compile(text, path, "exec", dont_inherit=True)
    except SyntaxError as exc:
        line = f" (line {exc.lineno})" if exc.lineno else ""
        return f"{path} {DOES_NOT_COMPILE}: {type(exc).__name__}: {str(exc.msg)[:200]}{line}"
    except (ValueError, RecursionError, MemoryError, OverflowError) as exc:  # a null byte, nesting too deep
        return f"{path} {DOES_NOT_COMPILE} ({type(exc).__name__}: {str(exc)[:100]})"
    return ""


def _has_code(text: str) -> bool:
    """Whether a module does anything when imported (more than a docstring)."""
    try:
        body = ast.parse(text).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True
    return any(not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)) for node in body)


def _refusal(text: str) -> str:
    """The grader's own words where ``text`` is what ``refusing_module`` staged in place of a module (else "")."""
    try:
        [node] = ast.parse(text).body
        message = ast.literal_eval(node.exc.args[0])  # type: ignore[attr-defined]
    except (SyntaxError, ValueError, TypeError, AttributeError, IndexError, RecursionError, MemoryError):
        return ""
    return message if type(message) is str and _refusing_text(message) == text else ""


def _bound_at_top(tree: ast.Module) -> set[str]:
    """Every name the module binds anywhere, in a function too: more than its top level binds, so that a name
    not among them is surely not bound at the top."""
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).partition(".")[0])
    return bound


FOLDERS_NOT_GRADED = ("only the .py files directly in {0}/ are graded (grading copies nothing else), so import "
                      "from those, or move this code into one of them")


def _a_folder(package_dir: Path, name: str) -> bool:
    """Whether ``name`` of the package is a folder where no module of that name is: an import ``_NoSubfolders``
    refuses, and ``load_finding`` names from the source."""
    return (package_dir / name).is_dir() and not (package_dir / f"{name}.py").is_file()


class _NoSubfolders:
    """Refuses to import a subfolder of the package, as grading would: grading stages only the
    package's own ``.py`` files (``stage_submission``), so a helper package that imports at home
    would be missing there. Here it fails the same way, with a message that says why."""

    def __init__(self, package: str, package_dir: Path) -> None:
        self.package, self.package_dir = package, package_dir

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        head, _, rest = fullname.partition(".")
        if head == self.package and rest and "." not in rest:  # one of its modules: read as Python reads it
            refuse_other_encodings(self.package_dir / f"{rest}.py", self.package)
        # `assignment.helpers...`, or a bare `import helpers` of a flat submission (see ``_Siblings``)
        first = rest.partition(".")[0] if head == self.package else (head if path is None else "")
        if first and _a_folder(self.package_dir, first):
            raise ModuleNotFoundError(f"{self.package}/{first}/ is a folder: "
                                      + FOLDERS_NOT_GRADED.format(self.package), name=fullname)
        if first and first.isidentifier() and (self.package_dir / f"{first}.pyc").is_file() \
                and not (self.package_dir / f"{first}.py").exists():  # Python would run it; grading copies no bytecode
            raise ModuleNotFoundError(f"{self.package}/{first}.pyc is bytecode without its {first}.py: grading copies "
                                      f"only the .py files of {self.package}/, so put {first}.py back", name=fullname)
        return None


def not_plain_utf8(source: bytes) -> str | None:
    """Why Python may run other text than the source readings read (they read UTF-8): a coding line
    (``# -*- coding: unicode_escape -*-`` makes ``#\\u000a`` a comment to one and a new line to the
    other), one ``tokenize`` cannot read but Python's own tokenizer does, or bytes that are not UTF-8.
    None for plain UTF-8 source (a ``coding: utf-8`` line included)."""
    try:
        source.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"it is not UTF-8 (byte {exc.start})"
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    except SyntaxError:
        return "its coding line cannot be read"
    if not _utf8(encoding):
        return f"it declares the source encoding {encoding!r}"
    # Python's tokenizer ends a line at a lone "\r" too, tokenize's only at "\n": b"\r# coding: ..." is a
    # blank line and then a coding line to one, a blank first line to the other. Read the first two lines
    # as Python does, and refuse any coding line in them but utf-8's.
    for line in source.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")[:2]:
        cookie = _COOKIE.match(line)
        if cookie and not _utf8(cookie.group(1).decode()):
            return f"it declares the source encoding {cookie.group(1).decode()!r}"
    return None


def _utf8(encoding: str) -> bool:
    """``utf-8`` under any of its names (``UTF8``, ``utf_8``, ``utf-8-sig``)."""
    try:
        return codecs.lookup(encoding).name in ("utf-8", "utf-8-sig")
    except LookupError:
        return False


_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")  # tokenize's, on bytes


def without_main_blocks(source: bytes) -> bytes:
    """A plain UTF-8 module as staged: its top-level ``if __name__ == "__main__":`` blocks blanked
    (``strip_main_blocks``), so what the readings read as dead cannot run, whatever the module does to
    its ``__name__``."""
    text = source.decode("utf-8-sig")
    stripped = strip_main_blocks(text)
    return source if stripped == text else stripped.encode("utf-8")


def refusing_module(name: str, why: str) -> bytes:
    """What is staged in place of a module that is not plain UTF-8: one that says so when imported. The
    grader reads and runs the same text, and none of the student's."""
    return _refusing_text(f"{name} is not graded: {why}; save it as UTF-8, with no coding line other than "
                          "utf-8").encode()


def _refusing_text(message: str) -> str:
    return f"raise ImportError({message!r})\n"


def _staged_refusal(filename: str, exc: BaseException) -> bool:
    """Whether ``exc`` was raised by a module staged in place of the student's (``_refusing_text``): its
    line 1 is no line of the student's file, and the message says all there is."""
    try:
        return isinstance(exc, ImportError) and Path(filename).read_text() == _refusing_text(str(exc))
    except (OSError, UnicodeDecodeError):
        return False


def other_files(folder: Path) -> list[str]:
    """Names of the files of a code folder that are not modules (``strides.py.txt``): those in it, and where it
    was staged, those ``stage_submission`` listed (it copies modules alone)."""
    names: list[str] = []
    try:
        for path in sorted(Path(folder).iterdir())[:MAX_FOLDERS_NAMED]:
            if path.suffix != ".py" and path.name != UNSTAGED and own_file(path):
                names.append(path.name)
        listed = Path(folder) / UNSTAGED
        if own_file(listed):
            with open(listed, "rb") as f:  # (at home the student's own file: a few lines read at most)
                names += f.read(2**14).decode("utf-8", "replace").splitlines()[:MAX_FOLDERS_NAMED]
    except OSError:
        pass
    return names


def refuse_other_encodings(path: Path, package: str) -> None:
    """A module of the implementation must be UTF-8, as the source readings read it: a coding
    declaration (``# -*- coding: unicode_escape -*-``) makes Python run other text than the readers
    see (``#\\u000a`` is a comment to one and a new line to the other). And no larger than grading stages
    (``MAX_MODULE_BYTES``): refused at home as graded, where a plain pytest run stages nothing."""
    try:
        with open(path, "rb") as handle:
            source = handle.read()
    except OSError:
        return  # no such file
    if len(source) > MAX_MODULE_BYTES:
        raise ImportError(too_large(path.name, len(source)), name=f"{package}.{path.stem}")
    why = not_plain_utf8(source)
    if why is not None:
        raise ImportError(f"{package}/{path.name}: {why}: only UTF-8 source is graded (remove the coding line)",
                          name=f"{package}.{path.stem}")


class _Siblings:
    """Finds ``name.py`` of the implementation's folder for a bare ``import name``, when the code that
    imports it is the implementation's own (a library's lazy ``import jax`` never finds a ``jax.py``
    of the submission's). Last on ``sys.meta_path``: anything installed of that name comes first."""

    def __init__(self, package_dir: Path) -> None:
        self.package_dir = package_dir

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if path is not None or "." in fullname:
            return None
        file = self.package_dir / f"{fullname}.py"
        if not file.is_file() or not self._asked_by_own_code():
            return None
        refuse_other_encodings(file, self.package_dir.name)
        return importlib.util.spec_from_file_location(fullname, file)

    def _asked_by_own_code(self) -> bool:
        frame = sys._getframe(2)
        while frame is not None:
            filename = frame.f_code.co_filename
            if not (filename.startswith("<frozen") or filename.startswith(_IMPORT_MACHINERY)):
                return filename.startswith(str(self.package_dir) + os.sep)
            frame = frame.f_back
        return False


_IMPORT_MACHINERY = (os.path.dirname(importlib.__file__) + os.sep, __file__)  # importlib, and the guard here


class _OnlyWhatGradingHas:
    """Refuses the implementation's own code an import of what grading lacks, as grading would.

    * The handout's tests: a worker sees the submission's files and the public harness, not ``tests/``, so
      constants taken from a strategy file import at home and fail every test of the part at grading. The
      test modules are already imported here, so no finder would be asked.
    * A library the grading machine has not installed (``requirements.txt`` lists what it has; where that
      file is not at hand, as in a worker, nothing is checked): at home one installed, or on PYTHONPATH,
      imports and passes, and graded the part scores 0.

    This wraps ``__import__`` and looks at who asks: a library's own imports are its business."""

    NOT_GRADED = frozenset(["tests", "conftest"])
    ALWAYS = frozenset(["torch", "numpy", "einops", "jaxtyping"])  # the spec's, whatever their metadata says
    ANY_PYTHON = frozenset(["__main__", "pip"])  # every interpreter's, and every virtual environment's
    packages: dict[str, str] = {}  # each implementation folder whose code is refused these imports -> its package
    folders: tuple[str, ...] = ()  # the keys of ``packages``, for one C-level test an import

    @classmethod
    def install(cls, package: str, package_dir: Path) -> None:
        cls.packages[str(package_dir) + os.sep] = package
        cls.folders = tuple(cls.packages)
        if not getattr(builtins.__import__, "_only_what_grading_has", False):
            real = builtins.__import__
            prefixes, modules = tuple(cls.NOT_GRADED), sys.modules

            def guarded(name, globals=None, locals=None, fromlist=(), level=0):
                # every import statement of the process runs this: the common case is two C-level tests (a
                # library already imported is no new library, and the tests are imported already)
                if (name.startswith(prefixes) or name not in modules) and level == 0 and globals is not None:
                    importer = globals.get("__file__")
                    if type(importer) is str and importer.startswith(cls.folders):
                        folder = next(f for f in cls.folders if importer.startswith(f))
                        cls._refuse(name, cls.packages[folder], folder, os.path.basename(importer))
                return real(name, globals, locals, fromlist, level)

            guarded._only_what_grading_has = True
            builtins.__import__ = guarded

    @classmethod
    def _refuse(cls, name: str, package: str, folder: str, importer: str) -> None:
        top = name.partition(".")[0]
        if top in cls.ALWAYS or top == "grader":  # (the grader: refused by the source reading, in its words)
            return
        if top in cls.NOT_GRADED:
            raise ModuleNotFoundError(
                f"{package}/{importer} imports {name}: the tests are not there when your code is graded (only the "
                f".py files of {package}/ are), so copy what you need into your own code", name=name)
        if top in sys.stdlib_module_names or top in sys.builtin_module_names or top in cls.ANY_PYTHON \
                or top == package or os.path.exists(os.path.join(folder, f"{top}.py")):
            return
        libraries = graded_libraries()
        if libraries is None or top in libraries:
            return
        try:
            here = importlib.util.find_spec(top) is not None
        except (ImportError, ValueError):  # a module in sys.modules without a spec: not this check's to say
            return
        if here:  # (not here either: the import fails as usual, "No module named ...", with its usual name)
            raise ModuleNotFoundError(
                f"{package}/{importer} imports {name}: {top} is not installed where your code is graded "
                f"({WHAT_GRADING_HAS}), so this import fails there; your modules may use torch, numpy, "
                "einops, jaxtyping, the standard library and each other", name=top)  # (`import a.b` fails as a's)


REQUIREMENTS = Path(__file__).resolve().parents[2] / "requirements.txt"
# the handout's recording names the distributions requirements.txt pinned when it was made: a line a student adds
# to their copy installs nothing where they are graded, and must not let the check above pass what grading refuses
RECORDED_MANIFEST = REQUIREMENTS.parent / "tests" / "recorded" / "manifest.json"
WHAT_GRADING_HAS = "it has what requirements.txt lists as the handout gave it: a line added installs nothing there"


def pinned_distributions(requirements: Path) -> list[str] | None:
    """The distributions a requirements file pins, by canonical name (lower case, ``-`` for ``_`` and ``.``);
    None where the file cannot be read."""
    try:
        lines = requirements.read_text().splitlines()
    except OSError:
        return None
    return sorted({_canonical(re.split(r"[=<>!~;\[ ]", line.strip(), maxsplit=1)[0]) for line in lines
                   if line.strip() and not line.lstrip().startswith(("#", "-"))})


def _canonical(dist: str) -> str:
    return re.sub(r"[-_.]+", "-", dist).lower()


@functools.cache
def graded_libraries() -> frozenset[str] | None:
    """The top-level names the distributions grading installs have here (and the spec's four), read once: the
    distributions the handout's recording names (``pinned_distributions`` when it was made), else those of
    ``requirements.txt``; None where neither, or the metadata, is at hand (then nothing is checked)."""
    pinned = None
    try:
        named = json.loads(RECORDED_MANIFEST.read_text()).get("requirements")
        if isinstance(named, list) and all(isinstance(n, str) for n in named):
            pinned = set(named)
    except (OSError, ValueError, AttributeError):
        pass
    if pinned is None:
        listed = pinned_distributions(REQUIREMENTS)
        if listed is None:
            return None
        pinned = set(listed)
    from importlib.metadata import packages_distributions

    try:
        installed = packages_distributions()
    except Exception:  # noqa: BLE001 - metadata this reading cannot follow: nothing is checked
        return None
    return frozenset(top for top, dists in installed.items()
                     if any(_canonical(d) in pinned for d in dists)) | _OnlyWhatGradingHas.ALWAYS


def safe_str(exc: BaseException) -> str:
    try:
        text = str(exc)
    except BaseException:  # a hostile __str__
        text = "<unprintable>"
    return text[:500]


def stage_submission(source: Path, into: Path | None = None, files: CodeFiles | None = None) -> Path:
    """Copy a submission's code into a fresh folder as an ``assignment`` package.

    ``source`` may hold an ``assignment/`` package, or the module files directly.
    Only ``.py`` files are copied (no bytecode, no data, no nested packages other
    than ``assignment``), so nothing else in the student's folder can shadow the
    harness. Nothing below ``source`` is followed through a link: a symlinked
    ``assignment/`` or module file, or a file hard-linked elsewhere, is left out,
    since the grader (as root) would otherwise copy in whatever it points at, the
    staff's own files included. Returns the folder that contains ``assignment/``. ``files``: where its modules
    are taken from, where the caller weighed that already (``code_files``).
    """
    source = Path(source)
    root = Path(into) if into is not None else Path(tempfile.mkdtemp(prefix="submission-"))
    package = root / "assignment"
    package.mkdir(parents=True, exist_ok=True)
    files = files or code_files(source)
    origin = files.folder
    modules = sorted(origin.glob("*.py"))
    if len(modules) > MAX_MODULES:  # every module is read (parsed) by the grading process, as root
        raise SubmissionTooLarge(f"the submission has {len(modules)} modules; at most {MAX_MODULES} are graded")
    modules = [path for path in modules if path.stem not in files.chosen] + list(files.chosen.values()) \
        + list(files.helpers)
    for path in modules:
        try:
            text = read_own_file(path)
        except SubmissionTooLarge as exc:  # that module alone is refused (its parts score 0), said as it imports
            (package / path.name).write_bytes(_refusing_text(str(exc)).encode())
            continue
        if text is not None:
            why = not_plain_utf8(text)
            (package / path.name).write_bytes(refusing_module(path.name, why) if why is not None
                                              else without_main_blocks(text))
        elif (link := _a_link(path)) is not None:  # said for what it is, not "missing": the file is there
            (package / path.name).write_bytes(_refusing_text(
                f"{path.name} is not graded: it is {link}, and the grader follows no link; put the file itself "
                "in the submission").encode())
    # the names of the other files, for a module saved as text to be named where it is missed (and those a
    # staging before this one listed: a batch stages the upload, then the run stages that copy again)
    unstaged = [name for name in other_files(origin) if name.isprintable() and len(name) <= 100][:MAX_FOLDERS_NAMED]
    if unstaged:
        (package / UNSTAGED).write_text("\n".join(unstaged), encoding="utf-8")
    # a helper folder's name, and nothing of it: importing it then fails as at home (``_NoSubfolders``),
    # saying why, not with a bare "No module named"
    for path in sorted(origin.iterdir())[:MAX_FOLDERS_NAMED]:
        if path.name.isidentifier() and path.name != "__pycache__" and real_dir(path):
            (package / path.name).mkdir(exist_ok=True)
    if not (package / "__init__.py").exists():
        (package / "__init__.py").write_text("")
    return root


@dataclass(frozen=True)
class CodeFiles:
    """Where a submission's modules are taken from: every ``.py`` of ``folder`` (its ``assignment/``, or the
    submission's folder where the module files lie loose), but the modules of ``chosen`` (module -> file), taken
    from the other copy, with the other copy's helper modules ``folder`` lacks (``helpers``); and ``said``, a
    sentence for the student where two copies were weighed ("" where not)."""

    folder: Path
    chosen: dict[str, Path]
    said: str = ""
    helpers: tuple[Path, ...] = ()

    def modules(self) -> dict[str, Path]:
        """The assignment's modules as staged: module -> the file graded."""
        own = {m: self.folder / f"{m}.py" for m in MODULES if own_file(self.folder / f"{m}.py")}
        return {**own, **self.chosen}

    def written(self) -> tuple[int, int]:
        """How written the modules graded are, as ``_written`` says of one, summed."""
        keys = [_written(path) for path in self.modules().values()]
        return sum(k[0] for k in keys), sum(k[1] for k in keys)


def code_files(source: Path) -> CodeFiles:
    """The submission's modules: from ``source/assignment/``, or from ``source`` itself where the module files lie
    loose. Where both hold module files (the handout's stubs left in assignment/ beside the work, a stray file
    beside a whole assignment/, work split between the two), each module is weighed alone (``_written``: fewer
    stubs left, then more functions and classes written; read, never run), and on a tie taken from the folder
    holding more of the modules (assignment/ on a tie of those too); a helper module of one copy alone is staged
    too. A folder with none of the modules is never chosen."""
    inner = source / "assignment"
    if not real_dir(inner):
        return CodeFiles(source, {})
    held = {folder: {m: folder / f"{m}.py" for m in MODULES if own_file(folder / f"{m}.py")}
            for folder in (inner, source)}
    if not held[source]:
        return CodeFiles(inner, {})
    if not held[inner]:
        return CodeFiles(source, {})
    more = source if len(held[source]) > len(held[inner]) else inner
    pick = {}
    for m in MODULES:
        there = [folder for folder in (inner, source) if m in held[folder]]
        if len(there) == 2:
            key = {folder: _written(held[folder][m]) for folder in there}
            there = [max(there, key=lambda f: key[f])] if key[inner] != key[source] else [more]
        if there:
            pick[m] = there[0]
    main = source if sum(f is source for f in pick.values()) > sum(f is inner for f in pick.values()) else inner
    other = source if main is inner else inner
    chosen = {m: held[other][m] for m, folder in pick.items() if folder is other}
    helpers = tuple(path for path in sorted(other.glob("*.py")) if path.stem not in MODULES
                    and path.name != "__init__.py" and not (main / path.name).exists()) if chosen else ()
    named = {inner: "the assignment/ folder", source: "the loose module files"}
    taken = f", but {', '.join(f'{m}.py' for m in chosen)} from {named[other]}" if chosen else ""
    return CodeFiles(main, chosen, f"the submission holds module files both loose and in an assignment/ folder: "
                                   f"graded {named[main]}{taken}; each module is taken from the copy with fewer "
                                   f"stubs left (functions that only raise NotImplementedError), then more "
                                   f"functions written, then from the folder with more modules", helpers)


def own_file(path: Path) -> bool:
    """Whether ``path`` is a regular file of the submission's own, as ``read_own_file`` reads one (not a link, nor
    hard-linked to a file elsewhere), seen without reading it (a file too large is refused when staged)."""
    try:
        status = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(status.st_mode) and status.st_nlink == 1


def _written(path: Path) -> tuple[int, int]:
    """How written a module is, larger more: (minus its stubs, functions whose body only raises
    NotImplementedError as the handout's do; its other functions and classes). A finished function that raises
    it in a branch is no stub; one that does not parse is the student's work, (0, 0), as an empty file is."""
    try:
        tree = ast.parse(read_own_file(path) or b"")
    except (SyntaxError, ValueError, RecursionError, MemoryError, SubmissionTooLarge):
        return 0, 0
    stubs = written = 0
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body[1:] if node.body and _docstring(node.body[0]) else node.body
            if len(body) == 1 and isinstance(body[0], ast.Raise) and body[0].exc is not None and (
                    _named(body[0].exc, "NotImplementedError") or isinstance(body[0].exc, ast.Call)
                    and _named(body[0].exc.func, "NotImplementedError")):
                stubs += 1
                continue
            written += 1
        elif isinstance(node, ast.ClassDef):
            written += 1
    return -stubs, written


def _docstring(node: ast.AST) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _named(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


MAX_MODULE_BYTES = 256 * 2**10  # a module larger than this is not one a student wrote (and costs a second to read)
MAX_MODULES = 64
MAX_FOLDERS_NAMED = 64
UNSTAGED = ".not-staged"  # in a staged package: the names of the code folder's files that are not modules


def too_large(name: str, size: int) -> str:
    """What is said of a module past ``MAX_MODULE_BYTES``, staged (``stage_submission``) or imported at home."""
    return f"{name} is not graded: it is {size // 2**10} KB; a module may be at most {MAX_MODULE_BYTES // 2**10} KB"


class SubmissionTooLarge(ValueError):
    """More modules, or a larger one, than any student writes: not graded (reading them costs the grader)."""


def real_dir(path: Path) -> bool:
    """A folder itself, not a link to one."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _a_link(path: Path) -> str | None:
    """What a module file ``read_own_file`` refused is, in words, where it is a link (else None)."""
    try:
        status = os.lstat(path)
    except OSError:
        return None
    if stat.S_ISLNK(status.st_mode):
        return "a symbolic link"
    return "hard-linked to another file" if stat.S_ISREG(status.st_mode) and status.st_nlink != 1 else None


def read_own_file(path: Path) -> bytes | None:
    """The bytes of a regular file that is the submission's own (not a link, nor hard-linked to a
    file elsewhere); None for anything else. ``SubmissionTooLarge`` past ``MAX_MODULE_BYTES``."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode) or status.st_nlink != 1:
            return None
        with os.fdopen(fd, "rb", closefd=False) as handle:
            text = handle.read(MAX_MODULE_BYTES + 1)  # never past the limit, whatever fstat said
        if len(text) > MAX_MODULE_BYTES:
            raise SubmissionTooLarge(too_large(path.name, max(status.st_size, len(text))))
        return text
    finally:
        os.close(fd)
