"""Staff check: no text becomes code where the implementation runs (``grader.harness.text_as_code``).

In this process the hook watches a folder of its own, as it watches the implementation's at home: code of
that folder on the stack, and every way of turning text into code is refused; what honest code does with
dataclasses, named tuples, type hints, jaxtyping and torch's script still works, and the tests' own code
(outside the folder) is never refused. A graded worker refuses everywhere: checked in a fresh process.
"""

from __future__ import annotations

import importlib.util
import marshal
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from grader.harness import jaxtyping_guard, text_as_code
from grader.harness.text_as_code import TextAsCode

ROOT = Path(__file__).resolve().parent.parent

OWN = '''
def call(f, *args, **kwargs):
    """Whatever the test hands it, called from here: this folder's code is on the stack."""
    return f(*args, **kwargs)


def evaluate(text):
    return eval(text)
'''


@pytest.fixture(scope="module")
def own(tmp_path_factory):
    """A module of a watched folder, as a student's module is at home."""
    folder = tmp_path_factory.mktemp("own")
    (folder / "own_code.py").write_text(OWN)
    text_as_code.install(str(folder))
    spec = importlib.util.spec_from_file_location("own_code_for_text_as_code", folder / "own_code.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # an import of the folder's own file: its text compiles
    return module


class _Exec:
    def __reduce__(self):
        return (exec, ("import os",))


def _made_by_sympy():
    from sympy.parsing.sympy_parser import parse_expr

    return lambda text: parse_expr(text, local_dict={}, evaluate=True)


@pytest.mark.parametrize("attempt", [
    pytest.param(lambda own: own.evaluate("1 + 1"), id="eval"),
    pytest.param(lambda own: own.call(exec, "x = 1", {}), id="exec"),
    pytest.param(lambda own: own.call(compile, "x = 1", "<text>", "exec"), id="compile"),
    pytest.param(lambda own: own.call(_made_by_sympy(), "exec('x = 1')"), id="sympy's parse_expr"),
    pytest.param(lambda own: own.call(pickle.loads, pickle.dumps(_Exec())), id="a pickle naming exec"),
    pytest.param(lambda own: own.call(lambda: own.call.__code__.replace(co_name="other")), id="code.replace"),
    pytest.param(lambda own: own.call(marshal.loads, marshal.dumps(_Exec.__reduce__.__code__)), id="marshal"),
    pytest.param(lambda own: own.call(__import__("typing").ForwardRef, "__import__('os').getcwd()"),
                 id="a type that calls"),
    pytest.param(lambda own: own.call(__import__("dataclasses")._create_fn, "f", (), ["return 1"]),
                 id="dataclasses' generator called directly"),
])
def test_text_turned_into_code_is_refused_while_the_folder_runs(own, attempt):
    with pytest.raises(TextAsCode) as raised:
        attempt(own)
    message = str(raised.value)
    assert "own_code" in message and "assignment/" in message, message


def test_code_of_a_file_written_at_run_time_is_refused(own, tmp_path_factory):
    """A loader handed a file the code wrote where no module may lie (its /tmp): the text matches the file,
    and is refused all the same; so is bytecode cached beside it."""
    import importlib.machinery
    import py_compile

    folder = tmp_path_factory.mktemp("written")
    source = folder / "written.py"
    source.write_text("ANSWER = 42\n")
    loader = importlib.machinery.SourceFileLoader("written", str(source))
    with pytest.raises(TextAsCode):
        own.call(loader.source_to_code, source.read_bytes(), str(source))
    cached = py_compile.compile(str(source), cfile=str(folder / "written.pyc"))
    with pytest.raises(TextAsCode):
        own.call(importlib.machinery.SourcelessFileLoader("written", cached).get_code, "written")


def test_a_function_of_a_code_object_is_refused_to_the_implementation(own):
    with pytest.raises(TextAsCode):
        own.call(type(own.call), own.evaluate.__code__, {})


def test_timeit_of_a_callable_runs_and_of_text_is_refused(own):
    import timeit

    assert own.call(timeit.Timer, lambda: 1).timeit(3) >= 0
    with pytest.raises(TextAsCode) as raised:
        own.call(timeit.Timer, "x = 1")
    assert "give timeit.Timer a function" in str(raised.value), "the message shows the way out"


def test_text_run_through_ctypes_is_refused(own):
    import ctypes

    # PyRun_SimpleString prints what was raised and returns -1: the text did not run
    assert own.call(ctypes.pythonapi.PyRun_SimpleString, b"import sys; sys.text_ran_here = 1") == -1
    assert not hasattr(sys, "text_ran_here")


def test_the_message_names_the_library_and_the_own_line(own):
    with pytest.raises(TextAsCode) as raised:
        own.call(_made_by_sympy(), "1 + 1")
    message = str(raised.value)
    assert message.startswith("sympy.parsing.sympy_parser."), message
    assert "called from own_code_for_text_as_code.call (line " in message, message


HONEST = '''
from __future__ import annotations

import collections
import dataclasses
import typing

import torch
from jaxtyping import Float, jaxtyped
from typeguard import typechecked


@dataclasses.dataclass(frozen=True)
class Limits:
    low: float = 0.0
    names: "list[str]" = dataclasses.field(default_factory=list)


class Pair(typing.NamedTuple):
    a: int
    b: float = 0.0


@jaxtyped(typechecker=typechecked)
def trimmed(x: Float[torch.Tensor, "n d"]) -> Float[torch.Tensor, "n d-1"]:
    return x[:, 1:]


def doubled(x: torch.Tensor) -> torch.Tensor:
    return x * 2


def everything():
    Limits(), dataclasses.make_dataclass("Made", [("a", int)])(1), Pair(1), collections.namedtuple("P", "a b")(1, 2)
    typing.get_type_hints(Limits)
    trimmed(torch.ones(2, 3))
    torch.jit.script(doubled)(torch.ones(2))
    torch.func.grad(lambda t: (t ** 2).sum())(torch.ones(3))
    return "ran"
'''


def test_what_honest_code_does_still_runs(tmp_path):
    (tmp_path / "honest_code.py").write_text(HONEST)
    jaxtyping_guard.install()  # as before an implementation's import (a type made before it is checked after it)
    text_as_code.install(str(tmp_path))
    spec = importlib.util.spec_from_file_location("honest_code_for_text_as_code", tmp_path / "honest_code.py")
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)  # (dataclasses look it up)
    spec.loader.exec_module(module)
    assert module.everything() == "ran"


def test_the_tests_own_code_is_not_watched(own):
    assert eval("1 + 1") == 2  # nothing of the folder on the stack


def test_forcing_torch_load_to_run_pickles_is_refused(own):
    name = "_".join(["TORCH", "FORCE", "NO", "WEIGHTS", "ONLY", "LOAD"])
    with pytest.raises(TextAsCode):
        own.call(os.environ.__setitem__, name, "1")
    assert name not in os.environ


EVERYWHERE = textwrap.dedent('''
    import builtins, gc, os, sys, tempfile, weakref
    from grader.harness import text_as_code
    from sympy.parsing.sympy_parser import parse_expr
    LIBRARY = os.path.join(tempfile.mkdtemp(), "site-packages")  # a library's folder, as a worker's roots hold
    os.mkdir(LIBRARY)
    sys.path.insert(0, LIBRARY)
    text_as_code.install(everywhere=True)
    import dataclasses
    dataclasses.make_dataclass("Fine", [("a", int)])
    MARK = "setattr(__import__('builtins'), 'TEXT_RAN', True)"  # one expression: nothing compiled within
    def _try(f, *args):
        try:
            f(*args)
            return "ran"
        except text_as_code.TextAsCode:
            return "refused"
    class Cycle:
        pass
    # a library's evaluator handed to a finalizer runs with no submission frame on the stack: where the garbage
    # is collected (here), and in the middle of a library's import (a module whose own code collects)
    gc.disable()  # collected only where asked
    for where in ("collect", "import"):
        cycle = Cycle()
        cycle.itself = cycle
        weakref.finalize(cycle, parse_expr, MARK)
        del cycle
        if where == "collect":
            gc.collect()
        else:
            with open(os.path.join(LIBRARY, "collects_at_import.py"), "w") as module:
                module.write("import gc\\ngc.collect()\\n")
            import collects_at_import
        print(where, getattr(builtins, "TEXT_RAN", False))
    print(_try(eval, "1 + 1"))
''')


def test_a_graded_worker_refuses_wherever_the_text_comes_from():
    run = subprocess.run([sys.executable, "-c", EVERYWHERE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["collect", "False", "import", "False", "refused"], run.stdout


def test_the_collectors_callback_hands_out_nothing_of_the_hook(own):
    """The callback the hook leaves in ``gc.callbacks`` (a list any code reads) is a plain function: no bound
    method whose object (``weakref.WeakMethod`` hands it back with no dunder written) holds the hook's switches,
    and a call that is not the collector's changes nothing."""
    import gc
    import weakref

    ours = [callback for callback in gc.callbacks if getattr(callback, "__name__", "") == "on_collection"]
    assert ours, gc.callbacks
    for callback in gc.callbacks:
        assert getattr(callback, "__self__", None) is not text_as_code._HOOK
        with pytest.raises(TypeError):
            weakref.WeakMethod(callback)
    ours[0]("start", {})  # not the collector's call: ignored
    assert text_as_code._HOOK.collecting == [False]


def test_a_library_installed_outside_site_packages_imports_at_home(tmp_path, monkeypatch):
    """``pip install --target DIR`` or a lab's folder named in PYTHONPATH: a correct named.py importing einops from
    there scored full marks graded and failed every Part 6 test at home, told it turned text into code (red
    team). A graded worker runs on the grader's own installation: there, such a folder is no library's."""
    import shutil

    import einops

    lib, sub = tmp_path / "lib", tmp_path / "sub"
    shutil.copytree(Path(einops.__file__).parent, lib / "einops")
    sub.mkdir()
    for path in (ROOT / "reference").glob("*.py"):
        shutil.copy(path, sub / path.name)
    run = subprocess.run([sys.executable, "-m", "pytest", "tests/test_part06_named.py", f"--submission={sub}", "-q",
                          "-p", "no:cacheprovider"], cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(lib)})
    assert run.returncode == 0, run.stdout[-3000:]  # (PYTHONPATH comes before site-packages: the copy is imported)
    monkeypatch.setenv("PYTHONPATH", str(lib))
    hook = text_as_code._Hook()
    hook.learn_roots()
    module = str(lib / "einops" / "__init__.py")
    assert hook.readable_file(module)
    hook.everywhere = True
    assert not hook.readable_file(module)
