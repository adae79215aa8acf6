"""Short, readable renderings of plain values for failure messages."""

from __future__ import annotations

import math
import re
from typing import Any, Sequence

import numpy as np
import torch

MAX_ELEMENTS = 12
MAX_TEXT = 400


# What text from an implementation may not carry into a message, a log, a CSV or a report: lone UTF-16
# surrogates (no file can be written with one: a student's exception message would stop the batch's
# outputs), terminal controls (a log read in a terminal would run them) and the marks that reorder text.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def printable(text: str) -> str:
    """``text`` with lone surrogates as U+FFFD and controls (but newline and tab) as ``\\xNN`` escapes."""
    text = _SURROGATE.sub("\ufffd", text)
    return _UNPRINTABLE.sub(_escape, text)


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


HIDDEN = "?"  # a fixed-input answer of which the handout holds only a digest
HIDDEN_NOTE = ("(? = not shown: this answer is one of a fixed few (a table's, a format's values), which a message "
               "would give away; the handout keeps only a fingerprint of it)")


def show(value: Any, digits: int = 10) -> str:
    """``value`` in a line of at most MAX_TEXT characters, floats to ``digits`` significant digits (17: every
    float as itself, for two values that agree to 10)."""
    text = _show(value, digits)
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 3] + "..."


def hides(value: Any) -> bool:
    """Whether a value holds a digest in place of an answer."""
    from grader.harness.digest import Digest
    from grader.harness.wire import Record

    if isinstance(value, Digest):
        return True
    if type(value) in (tuple, list):
        return any(hides(v) for v in value)
    if type(value) is dict:
        return any(hides(v) for v in value.values())
    if isinstance(value, Record):
        return any(hides(v) for _, v in value.fields)
    return False


def _num(x: float, digits: int = 10) -> str:
    if not isinstance(x, float) or not math.isfinite(x) or (x.is_integer() and abs(x) < 1e16) or digits >= 17:
        return repr(x)  # every digit a float has (the shortest text that reads back as it)
    text = f"{x:.{digits}g}"
    return text if "." in text or "e" in text else text + ".0"  # 1.0000000000001 is a float: never "1"


def _show(value: Any, digits: int = 10) -> str:
    if type(value).__name__ == "Digest":
        return HIDDEN
    if isinstance(value, torch.Tensor):
        return show_tensor(value, digits)
    if isinstance(value, np.ndarray):
        return show_array(value, digits)
    if type(value) is np.random.Generator:
        return show_generator(value)
    if isinstance(value, torch.dtype):
        return str(value)
    if type(value) is float:
        return _num(value, digits)
    if type(value) is tuple:
        inner = ", ".join(_show(v, digits) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if type(value) is list:
        if len(value) > MAX_ELEMENTS:
            head = ", ".join(_show(v, digits) for v in value[:MAX_ELEMENTS])
            return f"[{head}, ... ({len(value)} items)]"
        return "[" + ", ".join(_show(v, digits) for v in value) + "]"
    if type(value) is dict:
        return "{" + ", ".join(f"{_show(k, digits)}: {_show(v, digits)}" for k, v in value.items()) + "}"
    if type(value).__name__ == "Record":  # a dataclass or namedtuple the wire carried: its fields shown as values
        return f"{value.name}(" + ", ".join(f"{k}={_show(v, digits)}" for k, v in value.fields) + ")"
    return repr(value)


def show_tensor(t: torch.Tensor, digits: int = 10) -> str:
    dtype = str(t.dtype).removeprefix("torch.")
    head = f"tensor(shape={tuple(t.shape)}, dtype={dtype}"
    device = getattr(t, "wire_device", t.device.type)
    if device != "cpu":
        head += f", device={device}"
    if getattr(t, "wire_requires_grad", False):
        head += ", requires_grad=True"
    if t.numel() == 0:
        return head + ")"
    flat = t.detach().reshape(-1)[:MAX_ELEMENTS]
    if t.dtype.is_floating_point or t.dtype.is_complex:
        flat = flat.to(torch.float64 if not t.dtype.is_complex else torch.complex128)
    return f"{head}, values={_first_values(flat.tolist(), t.numel(), digits)})"


def show_array(a: np.ndarray, digits: int = 10) -> str:
    """Like a tensor: shape, dtype and the first values (a dataset of a few rows is an input to rerun)."""
    kind = "numpy memmap" if isinstance(a, np.memmap) else "numpy array"
    head = f"{kind}(shape={tuple(a.shape)}, dtype={a.dtype}"
    if a.size == 0 or a.dtype.kind not in "biuf":
        return head + ")"
    flat = a.flat[:MAX_ELEMENTS].tolist()  # the first few, never a copy of the whole (a strided memmap's)
    return f"{head}, values={_first_values(flat, a.size, digits)})"


def _first_values(first: list, count: int, digits: int) -> str:
    """``[v0, v1, ... N values]``: the first of ``count`` values, as a tensor's and an array's are shown."""
    values = [_num(v, digits) if isinstance(v, float) else repr(v) for v in first]
    more = f", ... {count} values" if count > MAX_ELEMENTS else ""
    return f"[{', '.join(values)}{more}]"


def show_generator(rng: np.random.Generator) -> str:
    """How the generator was made, where its seed sequence says (``default_rng([7, 1])``), not its address:
    a shown input one can make again. Its state may have moved on since (a stopped call's locals)."""
    bits = type(rng.bit_generator).__name__
    try:
        seed = rng.bit_generator.seed_seq
        entropy, spawned = seed.entropy, seed.spawn_key
    except AttributeError:
        return f"numpy Generator({bits})"
    if spawned or not isinstance(entropy, (int, list, tuple)):
        return f"numpy Generator({bits})"
    made = list(entropy) if isinstance(entropy, (list, tuple)) else entropy
    return f"np.random.default_rng({made!r})" if bits == "PCG64" else f"numpy Generator({bits}({made!r}))"


def show_inputs(names: Sequence[str], args: tuple, kwargs: dict) -> str:
    parts = []
    for i, value in enumerate(args):
        name = names[i] if i < len(names) else f"arg{i}"
        parts.append(f"{name}={show(value)}")
    parts.extend(f"{k}={show(v)}" for k, v in kwargs.items())
    return ", ".join(parts)


class Later:
    """Text made only when something reads it (a failure message), not for every question asked."""

    __slots__ = ("_make", "_text")

    def __init__(self, make) -> None:
        self._make = make
        self._text: str | None = None

    def __str__(self) -> str:
        if self._text is None:
            self._text = str(self._make())
        return self._text

    def __bool__(self) -> bool:
        return bool(str(self))

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __eq__(self, other: object) -> bool:
        return str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    def __repr__(self) -> str:
        return repr(str(self))

