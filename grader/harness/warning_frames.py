"""``warnings.warn`` names no frame of the harness.

A warning carries the file and line of the frame its ``stacklevel`` names, and code can read them back
(``warnings.catch_warnings(record=True)``, stderr redirected around the default ``showwarning``, a
registry). Called by the harness, an implementation's function that warns with ``stacklevel=2`` would
learn who called it: which probe watches it, a way to behave only when unwatched. So would a warning a
library makes on the implementation's behalf (``functools.partial(warnings.warn, ..., 5)`` entered by
contextlib, a dataclass's ``default_factory``). Refusing every stacklevel above 1 in the source cost
honest code (``warnings.warn(msg, stacklevel=2)`` is what linters ask for) and stopped none of those. So,
in the process that runs the implementation, ``warnings.warn`` (the module's attribute, which the
implementation and the libraries look up when they call it) never names a frame of the harness (the
``grader`` package, the tests) for a warning made outside it: one that would names the last frame below
it instead (the implementation's, or a library's, which say nothing of who called). A warning the harness
makes itself, and one that names no harness frame, is left as it is.

Installed once per process, before the implementation's package is imported (``impl.Implementation``).
"""

from __future__ import annotations

import operator
import os
import sys
import warnings
from pathlib import Path
from typing import Any

_HERE = Path(__file__).absolute().parents[1]  # the grader package, as imported (a frame's file name is)
# the harness's folders, as found and as resolved: the grader package, and the tests beside it (at home)
HARNESS = tuple(dict.fromkeys(prefix for folder in (_HERE, _HERE.parent / "tests")
                              for prefix in (str(folder) + os.sep, os.path.realpath(folder) + os.sep)))


def _harness(frame: Any) -> bool:
    return frame.f_code.co_filename.startswith(HARNESS)


def _internal(frame: Any) -> bool:
    """A frame of the import system, which warn steps over as it counts (CPython's ``is_internal_frame``)."""
    filename = frame.f_code.co_filename
    return "importlib" in filename and "_bootstrap" in filename


def level_within(caller: Any, stacklevel: int) -> int:
    """The stacklevel ``warn`` called from ``caller`` is given, counted as warn counts (from the caller, over
    the import system's frames): where it would name a frame of the harness and the caller is none, the level
    of the last frame below it that is none."""
    if _harness(caller):
        return stacklevel  # (the harness's own warning)
    frame, level, last = caller, 1, 1
    plain = stacklevel <= 0 or _internal(caller)
    while frame is not None and level < stacklevel:
        frame = frame.f_back
        while not plain and frame is not None and _internal(frame):
            frame = frame.f_back
        level += 1
        if frame is not None and _harness(frame):
            return last
        last = level
    return stacklevel


def install() -> None:
    """Make ``warnings.warn`` name no frame of the harness for a warning made outside it, in this process.
    Idempotent."""
    if getattr(warnings.warn, "_graded", False):
        return
    real = warnings.warn

    def warn(message, category=None, stacklevel=1, source=None, **options):
        try:
            asked = operator.index(stacklevel)
        except TypeError:  # (warn's own error; never handed on: an __index__ may answer otherwise a second time)
            raise TypeError(f"'{type(stacklevel).__name__}' object cannot be interpreted as an integer") from None
        caller = sys._getframe(1)
        if options.get("skip_file_prefixes") and not _harness(caller):
            options = {k: v for k, v in options.items() if k != "skip_file_prefixes"}  # (it would skip frames)
        # (+1: this frame; warn names its caller for any stacklevel up to 1)
        return real(message, category, max(level_within(caller, asked), 1) + 1, source, **options)

    warn._graded = True
    warn.__doc__, warn.__name__, warn.__qualname__ = real.__doc__, real.__name__, real.__qualname__
    warnings.warn = warn
