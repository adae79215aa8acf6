"""``warnings.warn`` names no frame above the implementation's own.

A warning carries the file and line of the frame its ``stacklevel`` names, and code can read them back
(``warnings.catch_warnings(record=True)``, stderr redirected around the default ``showwarning``).
Called by the harness, an implementation's function that warns with ``stacklevel=2`` would learn who
called it: which probe watches it, a way to behave only when unwatched. Refusing every stacklevel above 1
in the source cost honest code (``warnings.warn(msg, stacklevel=2)`` is what linters ask for) and stopped
none of the library calls that warn on their caller's behalf. So, in the process that runs the
implementation, ``warnings.warn`` (the module's attribute, which the implementation and the libraries
look up when they call it) names at most the outermost frame of the implementation on the way up: a
warning that would name a frame above it names that frame instead. A stacklevel that stays inside the
implementation, or that never passes through it, is left as it is.

Installed once per process, before the implementation's package is imported (``impl.Implementation``).
"""

from __future__ import annotations

import operator
import os
import sys
import warnings
from typing import Any

_folders: tuple[str, ...] = ()  # the implementations' folders, as given and resolved


def _own(frame: Any) -> bool:
    return frame.f_code.co_filename.startswith(_folders)


def _internal(frame: Any) -> bool:
    """A frame of the import system, which warn steps over as it counts (CPython's ``is_internal_frame``)."""
    filename = frame.f_code.co_filename
    return "importlib" in filename and "_bootstrap" in filename


def level_within(caller: Any, stacklevel: int) -> int:
    """The stacklevel ``warn`` called from ``caller`` is given, counted as warn counts (from the caller, over
    the import system's frames), cut to the outermost frame of the implementation where it would name a frame
    above that (or beyond the stack) after passing through one."""
    frame, level, outermost = caller, 1, 0
    plain = stacklevel <= 0 or _internal(caller)
    while frame is not None:
        if _own(frame):
            outermost = level
        if level >= stacklevel:
            break
        frame = frame.f_back
        while not plain and frame is not None and _internal(frame):
            frame = frame.f_back
        level += 1
    named_own = frame is not None and _own(frame)
    return outermost if outermost and not named_own and stacklevel > outermost else stacklevel


def install(folder: str) -> None:
    """Make ``warnings.warn`` name no frame above ``folder``'s code, in this process. Idempotent."""
    global _folders
    for prefix in (os.path.realpath(folder).rstrip(os.sep) + os.sep, folder.rstrip(os.sep) + os.sep):
        if prefix not in _folders:
            _folders = (*_folders, prefix)
    if getattr(warnings.warn, "_graded", False):
        return
    real = warnings.warn

    def warn(message, category=None, stacklevel=1, source=None, **options):
        try:
            asked = operator.index(stacklevel)
        except TypeError:  # (warn's own error; never handed on: an __index__ may answer otherwise a second time)
            raise TypeError(f"'{type(stacklevel).__name__}' object cannot be interpreted as an integer") from None
        caller = sys._getframe(1)
        if options.get("skip_file_prefixes") and any(_own(f) for f in _frames(caller)):
            options = {k: v for k, v in options.items() if k != "skip_file_prefixes"}  # (it would skip ours)
        # (+1: this frame; warn names its caller for any stacklevel up to 1)
        return real(message, category, max(level_within(caller, asked), 1) + 1, source, **options)

    warn._graded = True
    warn.__doc__, warn.__name__, warn.__qualname__ = real.__doc__, real.__name__, real.__qualname__
    warnings.warn = warn


def _frames(frame: Any):
    while frame is not None:
        yield frame
        frame = frame.f_back
