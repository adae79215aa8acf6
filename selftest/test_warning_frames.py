"""A warning names no frame above the implementation's own (grader/harness/warning_frames.py).

The implementation here is a package in a temporary folder, imported as the harness imports one
(``Implementation``, which installs the cut): its function warns with ``stacklevel`` 1, 2 and 3, and a
library's function it calls warns on its callers' behalf. What each warning names is read back as code
of the implementation could read it (``catch_warnings(record=True)``).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from grader.harness.impl import Implementation

WARNS = """\
import warnings


def warn(level):
    warnings.warn("slow", UserWarning, level)  # line 5


def through_helper(level):
    return warn(level)  # line 9


def library_on_my_behalf(library_warn):
    return library_warn()  # line 13


def level_by_keyword(level):
    warnings.warn("slow", stacklevel=level)  # line 17
"""


@pytest.fixture(scope="module")
def warned(tmp_path_factory) -> object:
    root = tmp_path_factory.mktemp("warned")
    (root / "warned").mkdir()
    (root / "warned" / "__init__.py").write_text("")
    (root / "warned" / "m.py").write_text(WARNS)
    return Implementation("warned", root).module("m")


def named(call) -> tuple[str, int]:
    """The file (its name) and line the warning ``call`` makes names."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    assert len(caught) == 1, caught
    return Path(caught[0].filename).name, caught[0].lineno


def test_a_warning_inside_the_implementation_names_what_it_asks(warned):
    assert named(lambda: warned.warn(1)) == ("m.py", 5)
    assert named(lambda: warned.through_helper(2)) == ("m.py", 9)  # its helper's caller: its own
    assert named(lambda: warned.level_by_keyword(1)) == ("m.py", 17)


@pytest.mark.parametrize("level", [2, 3, 50])
def test_a_warning_that_would_name_its_caller_names_its_outermost_frame(warned, level):
    """Called by the harness (this file), stacklevel=2 would name this file's line: it names the
    implementation's outermost frame instead, however far up it asks, or beyond the stack."""
    assert named(lambda: warned.warn(level)) == ("m.py", 5)
    assert named(lambda: warned.level_by_keyword(level)) == ("m.py", 17)
    assert named(lambda: warned.through_helper(level + 1)) == ("m.py", 9)


def test_a_library_warning_on_the_implementation_s_behalf_names_no_frame_above_it(warned):
    def library_warn():  # (this file is no implementation's: a library's function, to the cut)
        warnings.warn("deprecated", DeprecationWarning, stacklevel=3)

    assert named(lambda: warned.library_on_my_behalf(library_warn)) == ("m.py", 13)


def test_a_warning_that_never_passes_through_the_implementation_is_left_alone(warned):
    def library_warn():
        warnings.warn("deprecated", DeprecationWarning, stacklevel=2)

    def caller():
        library_warn()  # the line named

    assert named(caller) == ("test_warning_frames.py", caller.__code__.co_firstlineno + 1)
    assert warnings.warn._graded


def test_stacklevel_of_any_size_or_kind_warns_as_before(warned):
    assert named(lambda: warned.warn(0)) == ("m.py", 5)
    assert named(lambda: warned.warn(-3)) == ("m.py", 5)
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
    assert named(lambda: warned.warn(Shifty())) == ("m.py", 5)  # (asked a second time: 50, cut)
