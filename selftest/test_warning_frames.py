"""A warning made outside the harness names no frame of it (grader/harness/warning_frames.py).

The implementation here is a package in a temporary folder, imported as the harness imports one
(``Implementation``, which installs the cut), beside a "library" module in another; this file stands for the
harness (its folder is added to ``HARNESS`` for these tests). The implementation's function warns with
``stacklevel`` 1, 2, 3 and 50, itself or through the library (as ``functools.partial(warnings.warn, ...)``
entered by contextlib would). What each warning names is read back as code of the implementation could
read it (``catch_warnings(record=True)``). Every ``warn`` libraries took before the cut (``random._warn``,
``from warnings import warn``, a default argument, TorchScript's table) is the cut too.
"""

from __future__ import annotations

import functools
import gc
import importlib.util
import random
import types
import os
import sys
import warnings
from pathlib import Path

import pytest

from grader.harness import warning_frames
from grader.harness.impl import Implementation
from grader.harness.longlived import seen_by_the_collector

WARNS = """\
import contextlib
import functools
import warnings


def warn(level):
    warnings.warn("slow", UserWarning, level)  # line 7


def through_helper(level):
    return warn(level)  # line 11


def library_on_my_behalf(library_warn):
    return library_warn()  # line 15


def level_by_keyword(level):
    warnings.warn("slow", stacklevel=level)  # line 19


class _Told(contextlib.ContextDecorator):
    __enter__ = functools.partial(warnings.warn, "entered", UserWarning, 5)

    def __exit__(self, *exc):
        return False


@_Told()
def decorated():
    return 1


def through_warn_a_library_took(level):
    import random

    random._warn("slow", UserWarning, level)  # line 37: random took warn before the cut
"""

LIBRARY = """\
import warnings


def warn_for_caller(level):
    warnings.warn("deprecated", DeprecationWarning, stacklevel=level)  # line 5


def calls_warn_for_caller():
    warn_for_caller(2)  # line 9
"""


@pytest.fixture(scope="module")
def warned(tmp_path_factory) -> object:
    root = tmp_path_factory.mktemp("warned")
    (root / "warned").mkdir()
    (root / "warned" / "__init__.py").write_text("")
    (root / "warned" / "m.py").write_text(WARNS)
    return Implementation("warned", root).module("m")


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> object:
    path = tmp_path_factory.mktemp("library") / "warning_library.py"
    path.write_text(LIBRARY)
    spec = importlib.util.spec_from_file_location("warning_library", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def this_file_is_the_harness(monkeypatch):
    here = str(Path(__file__).resolve().parent) + os.sep
    monkeypatch.setattr(warning_frames, "HARNESS", (*warning_frames.HARNESS, here))


def named(call) -> tuple[str, int]:
    """The file (its name) and line the warning ``call`` makes names."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    assert len(caught) == 1, caught
    return Path(caught[0].filename).name, caught[0].lineno


def test_a_warning_inside_the_implementation_names_what_it_asks(warned):
    assert named(lambda: warned.warn(1)) == ("m.py", 7)
    assert named(lambda: warned.through_helper(2)) == ("m.py", 11)  # its helper's caller: its own
    assert named(lambda: warned.level_by_keyword(1)) == ("m.py", 19)


@pytest.mark.parametrize("level", [2, 3, 50])
def test_a_warning_that_would_name_the_harness_names_the_last_frame_below_it(warned, level):
    """Called by the harness (this file), stacklevel=2 would name this file's line: it names the
    implementation's outermost frame instead, however far up it asks."""
    assert named(lambda: warned.warn(level)) == ("m.py", 7)
    assert named(lambda: warned.level_by_keyword(level)) == ("m.py", 19)
    assert named(lambda: warned.through_helper(level + 1)) == ("m.py", 11)


def test_a_library_warning_on_the_implementation_s_behalf_names_no_harness_frame(warned, library):
    on_behalf = functools.partial(library.warn_for_caller, 4)  # its caller's caller's caller: this file's
    assert named(lambda: warned.library_on_my_behalf(on_behalf)) == ("m.py", 15)
    # warn handed to contextlib as __enter__: no frame of the implementation between it and the caller
    filename, _ = named(warned.decorated)
    assert filename == "contextlib.py", filename


def test_a_warning_that_names_no_harness_frame_is_left_alone(warned, library):
    assert named(library.calls_warn_for_caller) == ("warning_library.py", 9)

    def harness_warns():  # the harness's own warning, about its own caller
        warnings.warn("note", UserWarning, stacklevel=2)

    def caller():
        harness_warns()  # the line named

    assert named(caller) == ("test_warning_frames.py", caller.__code__.co_firstlineno + 1)
    assert warnings.warn._graded


@pytest.mark.parametrize("level", [1, 2, 3, 50])
def test_a_warn_a_library_took_before_the_cut_is_cut_too(warned, level):
    assert named(lambda: warned.through_warn_a_library_took(level)) == ("m.py", 37)


def test_nothing_but_the_cut_holds_the_real_warn(warned):
    import asyncio.base_events

    import torch.jit._builtins
    import torch.nn.attention
    import typeguard

    cut = warning_frames._warn
    assert warnings.warn is cut and sys.modules["_warnings"].warn is cut and random._warn is cut
    assert typeguard.warn is cut and torch.nn.attention.warn is cut
    assert [fn for fn, name in torch.jit._builtins._builtin_ops if name == "aten::warn"] == [cut]
    assert asyncio.base_events.BaseEventLoop.__del__.__defaults__ == (cut,)
    with seen_by_the_collector():
        assert gc.get_referrers(warning_frames._REAL) == [vars(warning_frames)]


def test_the_sweep_finds_every_kind_of_holder():
    """``_rebind`` on a stand-in for warn, held every way a library holds a function."""

    def real(*args):
        return "real"

    def cut(*args):
        return "cut"

    module = types.ModuleType("holder")
    module.warn = real

    class Holder:
        warn = real

    table = [(real, "aten::warn"), real]
    defaults = types.FunctionType((lambda _warn=None: _warn).__code__, {}, "f", (real,))
    cell = types.CellType(real)
    partial = functools.partial(real, "message", stacklevel=2)
    values = {"pair": (real, 1)}
    instance = types.SimpleNamespace(warn=real)
    warning_frames._rebind(real, cut)
    assert module.warn is cut and Holder.warn is cut and Holder().warn() == "cut" and instance.warn is cut
    assert table == [(cut, "aten::warn"), cut] and defaults() is cut and cell.cell_contents is cut
    assert partial.func is cut and partial.args == ("message",) and partial.keywords == {"stacklevel": 2}
    assert values == {"pair": (cut, 1)}


def test_stacklevel_of_any_size_or_kind_warns_as_before(warned):
    assert named(lambda: warned.warn(0)) == ("m.py", 7)
    assert named(lambda: warned.warn(-3)) == ("m.py", 7)
    with pytest.raises(TypeError):
        warned.warn("2")


def test_a_stacklevel_that_answers_otherwise_when_asked_again_is_asked_once(warned):
    """An ``__index__`` that refuses once, then says 50: the cut asks it once and hands warn only its own number."""

    class Shifty:
        asked = 0

        def __index__(self):
            Shifty.asked += 1
            if Shifty.asked == 1:
                raise TypeError("not yet")
            return 50

    with pytest.raises(TypeError):
        warned.warn(Shifty())
    assert Shifty.asked == 1
    assert named(lambda: warned.warn(Shifty())) == ("m.py", 7)  # (asked a second time: 50, cut)


def test_the_harness_is_the_grader_package():
    grader = str(Path(warning_frames.__file__).resolve().parents[1]) + os.sep
    assert grader in warning_frames.HARNESS and sys.modules["grader.harness.probes"].__file__.startswith(grader)
    as_imported = str(Path(warning_frames.__file__).absolute().parents[1]) + os.sep  # (a frame's file name)
    assert as_imported in warning_frames.HARNESS
