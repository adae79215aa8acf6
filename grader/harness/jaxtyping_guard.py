"""jaxtyping's symbolic dimensions, limited to arithmetic where student code runs.

jaxtyping evaluates a symbolic dimension (``Float[Tensor, "n d-1"]``) with ``eval``, as an f-string
and then as an expression, when a checked function is called. A dimension built at run time and
handed to a jaxtyping type that no reading can follow (a table's entry, a call's result) is then
code no reading sees: ``eval`` of any text. The source readings charge what they can see of this
(``grader.harness.source._jaxtyping_dims``); in the process that runs the implementation, a
symbolic dimension must also be arithmetic on axis names and integers, or making the type fails
with ``ValueError``, before anything is evaluated. What correct annotations use (``d-1``,
``2*n``, ``h*d``) is untouched.

Installed once per process, before the implementation's package is imported. jaxtyping's private
names are read here alone.
"""

from __future__ import annotations

import ast

_ARITHMETIC = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Name, ast.Load, ast.Constant, ast.Add, ast.Sub,
               ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.USub, ast.UAdd)


def arithmetic(text: str) -> bool:
    """Whether a symbolic dimension is arithmetic on names and integers (``d-1``, ``2*n``, ``(h*d)//2``)."""
    if any(c in text for c in "{}'\"\\") or len(text) > 200:  # an f-string's braces, quotes, escapes
        return False
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return all(isinstance(node, _ARITHMETIC) and not (isinstance(node, ast.Constant) and type(node.value) is not int)
               for node in ast.walk(tree))


def install() -> None:
    """Make jaxtyping refuse a symbolic dimension that is not ``arithmetic``, in this process."""
    try:
        from jaxtyping import _array_types
    except ImportError:  # no jaxtyping: nothing evaluates dimensions
        return
    original = _array_types._SymbolicDim
    if getattr(original, "_graded", False):
        return

    class _ArithmeticDim(original):  # `type(dim) is _SymbolicDim` in jaxtyping's check reads this name
        _graded = True

        def __init__(self, elem, broadcastable):
            if not (isinstance(elem, str) and arithmetic(elem)):
                raise ValueError(f"the symbolic dimension {str(elem)[:60]!r} is not arithmetic on axis names and "
                                 "integers (d-1, 2*n): the grader refuses it, since jaxtyping would run it as code")
            super().__init__(elem, broadcastable)

    _ArithmeticDim.__name__ = _ArithmeticDim.__qualname__ = original.__name__
    _array_types._SymbolicDim = _ArithmeticDim
