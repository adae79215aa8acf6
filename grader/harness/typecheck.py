"""jaxtyping's run-time check, run on the trusted side against annotations read from the source.

The course checks Part 6 with ``jaxtyping.jaxtyped(typechecker=typeguard.typechecked)``
(jaxtyping's documented pairing with typeguard 2.13.3; typeguard 3 and 4 check
nothing). Wrapping the student's function where it runs would let the code under
test switch the check off, so the harness checks here instead: it builds a
stand-in with the student's own annotations (``grader.harness.source``), whose
body only returns what the student's function returned, and calls it through the
same wrapper with the same arguments. A check that fails before the body (an
argument) or after it (the result) fails the same way it would have.

The annotations are the student's text, and this is the grading process: an axis
that jaxtyping would evaluate as Python (a *symbolic* axis, ``dim+1``, or anything
else that is not a name or a size) is refused with a message and never reaches it.

    complaint = check_call(annotations, ("q", "k"), (q, k), result)   # None, or the checker's words
    complaint = check_call(annotations, ("q", "k"), (q, k))           # the arguments alone
"""

from __future__ import annotations

import functools
import keyword
from typing import Any, Callable

import jaxtyping
import torch
import typeguard

from grader.harness.jaxtyping_guard import arithmetic
from grader.harness.source import Annotation, Plain

CHECK_FAILED = (jaxtyping.TypeCheckError, TypeError)
ARRAYS = {"torch.Tensor": torch.Tensor, "Tensor": torch.Tensor}
PLAIN = {"int": int, "float": float, "bool": bool, "str": str}
DTYPES = frozenset(["Float", "Float16", "Float32", "Float64", "BFloat16", "Inexact", "Shaped", "Real", "Num",
                    "Complex", "Int", "Integer", "UInt", "Bool"])


class RunsCode(ValueError):
    """An annotation with an axis jaxtyping would evaluate as Python (a symbolic axis)."""


def code_axes(dims: str) -> list[str]:
    """The axes of ``dims`` that jaxtyping's check would run as code: a *symbolic* axis (anything that is
    not a name or a size once its ``#``, ``*``, ``_``, ``?`` marks and a ``name=`` are taken off) goes
    through ``eval``. The student wrote these strings and this is the grading process: such an axis is
    handed to jaxtyping only where it is arithmetic that cannot run anything or take long (``h*d``,
    ``n-1``, ``(s+1)//2``: names, integers, + - * // %, no power), else refused here (same parse as its own)."""
    found = []
    for axis in dims.split():
        elem = axis
        while elem and (elem[0] in "#*_?" or elem.count("=") == 1):
            elem = elem[1:] if elem[0] in "#*_?" else elem.split("=")[1]
        if elem in ("", "...") or elem.isidentifier():
            continue
        try:
            int(elem)
        except ValueError:
            if not arithmetic(elem) or "**" in elem:
                found.append(axis)
    return found


def rebuilt(annotation: Annotation | Plain) -> Any:
    """The annotation as an object the checker understands (None: nothing to check). Raises
    ``RunsCode`` for an axis jaxtyping would evaluate."""
    if isinstance(annotation, Annotation):
        code = code_axes(annotation.dims)
        if code:
            raise RunsCode(f"the annotation {annotation.dtype}[{annotation.array}, {annotation.dims!r}] has an axis "
                           f"jaxtyping would run as code ({code[0]!r}): write axis names (batch, seq), sizes, "
                           "*name, ... or _, or arithmetic on them (heads*head_dim, n-1), not other expressions")
        array = ARRAYS.get(annotation.array)
        if annotation.dtype in DTYPES and array is not None:
            return getattr(jaxtyping, annotation.dtype)[array, annotation.dims]
        return None
    return PLAIN.get(annotation.text)


@functools.lru_cache(maxsize=256)
def _stand_in(items: tuple, params: tuple[str, ...], returns: bool) -> Callable[..., Any]:
    """A function of ``params`` with these annotations (``items``: sorted (name, annotation) pairs),
    checked, its result too if ``returns``; it returns ``result``. (Built once.)"""
    annotations = dict(items)
    if not all(p.isidentifier() and not keyword.iskeyword(p) for p in params):
        raise ValueError(f"odd parameter names {params!r}")
    namespace: dict[str, Any] = {}
    exec(f"def checked({', '.join(params)}):\n    return checked.result\n", namespace)  # names checked above
    fn = namespace["checked"]
    hints = {name: rebuilt(annotations.get(name, Plain(""))) for name in (*params, *(["return"] if returns else []))}
    fn.__annotations__ = {name: hint for name, hint in hints.items() if hint is not None}
    checked = jaxtyping.jaxtyped(fn, typechecker=typeguard.typechecked)
    return lambda *args, result: (setattr(fn, "result", result), checked(*args))[1]


NO_RESULT = object()


def check_call(annotations: dict[str, Annotation | Plain], params: tuple[str, ...], args: tuple,
               result: Any = NO_RESULT) -> str | None:
    """None if ``args`` and ``result`` pass the annotations' check, else the checker's complaint.
    Without a ``result``, the arguments alone (the check a call would meet before its body ran)."""
    items = tuple(sorted(annotations.items()))
    returns = result is not NO_RESULT
    passed = (items, params, tuple(map(_seen_as, args)), _seen_as(result) if returns else None)
    if passed in _PASSED:
        return None
    try:
        stand_in = _stand_in(items, params, returns)
    except ValueError as refused:  # RunsCode, or an axis string jaxtyping itself refuses ("a,b")
        return str(refused)[:300]
    try:
        stand_in(*args, result=result)
    except CHECK_FAILED as exc:
        return complaint(exc)
    except (ArithmeticError, jaxtyping.AnnotationError) as exc:  # a symbolic axis naming no argument's axis
        return f"a symbolic axis could not be worked out: {str(exc).splitlines()[0] if str(exc) else exc!r}"[:300]
    if len(_PASSED) < 4096:
        _PASSED.add(passed)
    return None


# What passed, by what the check looks at: a tensor's class, dtype and shape; of anything else (checked
# against int, float, bool or str, or not at all) its class. A check took a millisecond, and a test
# checks the same shapes over and over; a complaint, which quotes the value, is made afresh each time.
_PASSED: set[tuple] = set()


def _seen_as(value: Any) -> tuple:
    if isinstance(value, torch.Tensor):
        return (type(value), value.dtype, tuple(value.shape))
    return (type(value),)


def complaint(exc: BaseException) -> str:
    """The checker's message, cut to what matters: which value, its shape, its annotation, the axes."""
    text = str(exc)
    head, _, tail = text.partition("-" * 22)
    lines = [line.strip() for line in head.splitlines() if line.strip()]
    what, got, annotated = "", "", ""
    for line in lines:
        if line.startswith("Type-check error whilst checking the "):
            what = line.removeprefix("Type-check error whilst checking the ").split(" of ")[0]
        elif line.startswith("The problem arose whilst typechecking "):
            what = line.removeprefix("The problem arose whilst typechecking ").rstrip(".")
        elif line.startswith("Actual value: "):
            got = line.removeprefix("Actual value: ")
        elif line.startswith("Expected type: "):
            annotated = line.removeprefix("Expected type: ").rstrip(".")
            annotated = annotated.removeprefix("<class '").removesuffix("'>").removeprefix("jaxtyping.")
    if not (what and got and annotated):
        return (lines[0] if lines else type(exc).__name__)[:300]
    _, _, axes = tail.partition("are as follows.")
    bound = ", ".join(line.strip() for line in axes.splitlines() if line.strip())
    return f"{what} is {got}, annotated {annotated}" + (f" (axes so far: {bound})" if bound else "")
