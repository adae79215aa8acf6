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

Replacing the module's attribute is not enough: libraries took ``warn`` before (``from warnings import warn``
in ``typeguard`` and ``torch.nn.attention``, ``random._warn``, the pair ``(warn, "aten::warn")`` in
TorchScript's table of builtins, a ``__del__``'s default ``_warn=warnings.warn``), and any of them called with
``stacklevel=3`` would name the probe. So every reference to the real one that exists when the cut is installed
(found by the garbage collector: in a namespace, a class, a list, a tuple in one, a function's defaults, a
closure's cell, a ``functools.partial``) is made the cut, ``_warnings.warn`` included; what is imported later
takes the cut. The real one stays in this module's namespace alone, which no implementation can reach (the
readings refuse importing the grader, ``sys.modules`` and ``__globals__``).

Installed once per process, before the implementation's package is imported (``impl.Implementation``), and in
the fork server before it forks a worker, so that workers inherit it without sweeping the heap again.
"""

from __future__ import annotations

import functools
import gc
import operator
import os
import sys
import types
import warnings
from pathlib import Path
from typing import Any

from grader.harness.longlived import seen_by_the_collector

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


_REAL: Any = None  # the real ``warn``, where nothing but the cut reaches it (``install``)


def _warn(message, category=None, stacklevel=1, source=None, **options):
    try:
        asked = operator.index(stacklevel)
    except TypeError:  # (warn's own error; never handed on: an __index__ may answer otherwise a second time)
        raise TypeError(f"'{type(stacklevel).__name__}' object cannot be interpreted as an integer") from None
    caller = sys._getframe(1)
    if options.get("skip_file_prefixes") and not _harness(caller):
        options = {k: v for k, v in options.items() if k != "skip_file_prefixes"}  # (it would skip frames)
    # (+1: this frame; warn names its caller for any stacklevel up to 1)
    return _REAL(message, category, max(level_within(caller, asked), 1) + 1, source, **options)


def install() -> None:
    """Make every ``warn`` there is name no frame of the harness for a warning made outside it, in this
    process. Idempotent."""
    global _REAL
    if _REAL is not None:
        return
    _REAL = warnings.warn
    _warn.__doc__, _warn.__name__, _warn.__qualname__ = _REAL.__doc__, _REAL.__name__, _REAL.__qualname__
    _warn._graded = True
    with seen_by_the_collector():
        _rebind(_REAL, _warn)


def _rebind(real: Any, cut: Any) -> None:
    """Every reference to ``real`` the garbage collector can find, but this module's own, made ``cut``: in a
    namespace or a class, a list, a dict's value, a tuple held by one of those or as a function's defaults, a
    cell, a partial. (A tuple elsewhere, a frame's locals: nothing an implementation can reach holds one.) Two
    sweeps of the heap in all, a few hundredths of a second with torch imported."""
    # (no comprehension here names ``real``: it would hold it in a cell, which this sweep would find and set)
    mine = globals()
    namespaces, tuples = [], []
    for holder in gc.get_referrers(real):
        if holder is mine or isinstance(holder, types.FrameType):
            continue
        if type(holder) is dict:
            namespaces.append(holder)
        elif type(holder) is list:
            holder[:] = _swapped(holder, real, cut)
        elif type(holder) is tuple:
            tuples.append(holder)
        elif type(holder) is types.CellType:
            holder.cell_contents = cut
        elif type(holder) is functools.partial and holder.func is real:
            holder.__setstate__((cut, holder.args, holder.keywords, holder.__dict__ or None))
    swapped = {}
    for old in tuples:
        swapped[id(old)] = tuple(_swapped(old, real, cut))
    classes = []
    for holder in gc.get_referrers(*namespaces, *tuples) if namespaces or tuples else ():
        if isinstance(holder, type):
            classes.append(holder)  # (a class's namespace is set through it, so its cache hears of it)
        elif isinstance(holder, types.FunctionType):
            if id(holder.__defaults__) in swapped:
                holder.__defaults__ = swapped[id(holder.__defaults__)]
        elif type(holder) is list:
            holder[:] = [swapped.get(id(item), item) if type(item) is tuple else item for item in holder]
        elif type(holder) is dict and holder is not mine:
            for key, value in list(holder.items()):
                if type(value) is tuple and id(value) in swapped:
                    holder[key] = swapped[id(value)]
    for namespace in namespaces:
        owner = next((c for c in classes if c.__dict__ == namespace), None)
        for key, value in list(namespace.items()):
            if value is real and owner is None:
                namespace[key] = cut
            elif value is real:
                try:
                    setattr(owner, key, cut)
                except (TypeError, AttributeError):  # (a builtin type's: none holds warn)
                    pass


def _swapped(items: Any, real: Any, cut: Any) -> list:
    found = []
    for item in items:
        found.append(cut if item is real else item)
    return found
