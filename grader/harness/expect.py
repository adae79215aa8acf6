"""Strict checks on what came back through the door, and comparison with the oracle.

A schema says what type an answer must have (``INT``, ``TupleOf(INT)``,
``Tensor(torch.float32)`` ...). Checks look at exact types (``type(x) is int``,
never ``isinstance``) of already-decoded plain values, so nothing an
implementation made can take part in the comparison.

    agree(impl, oracle, "strides.view_strides", shape, strides, new_shape,
          returns=Optional(TupleOf(INT)))

asks both doors the same question, checks the implementation's answer against
the schema and compares the two (exactly, unless ``compare=close(...)``). A
difference raises ``Mismatch`` with the input, both answers and how they were
compared; hypothesis then shrinks to the smallest such input.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from grader.harness.door import Door, describe_call
from grader.harness.faults import Mismatch
from grader.harness.wire import Opaque, Record

# --------------------------------------------------------------------------- schemas


def _kind(value: Any) -> str:
    """A type's name in the words a student would use."""
    if isinstance(value, Opaque):
        return f"an object of type {value.type_name}" + (f" ({value.why})" if value.why else "")
    if isinstance(value, Record):
        return f"a {value.name} {'named tuple' if value.kind == 'namedtuple' else 'dataclass'}"
    if isinstance(value, torch.Tensor):
        return f"a {str(value.dtype).removeprefix('torch.')} tensor"
    if isinstance(value, np.ndarray):
        return "a numpy array"
    if value is None:
        return "None"
    names = {bool: "a bool", int: "an int", float: "a float", str: "a string",
             tuple: "a tuple", list: "a list", dict: "a dict"}
    return names.get(type(value), f"a {type(value).__name__}")


class Schema:
    """``problem(value)`` is None when the value fits, else a plain-words reason."""

    text = "?"

    def problem(self, value: Any) -> str | None:
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.text


class _Int(Schema):
    text = "an int"

    def problem(self, value):
        if type(value) is int:
            return None
        if type(value) is float and value.is_integer():
            return f"returned the float {value!r}; expected an int (an exact count)"
        return f"returned {_kind(value)}; expected an int"


class _Float(Schema):
    """A real number: ``float``, or an ``int`` (its exact value). Never NaN."""

    text = "a float"

    def __init__(self, allow_inf: bool = False) -> None:
        self.allow_inf = allow_inf

    def problem(self, value):
        if type(value) not in (int, float):
            return f"returned {_kind(value)}; expected a float"
        if type(value) is float and math.isnan(value):
            return "returned NaN; expected a number"
        if not self.allow_inf and type(value) is float and math.isinf(value):
            return f"returned {value!r}; expected a finite number"
        return None


class _Bool(Schema):
    text = "a bool"

    def problem(self, value):
        return None if type(value) is bool else f"returned {_kind(value)}; expected a bool (True or False)"


class _Str(Schema):
    text = "a string"

    def problem(self, value):
        return None if type(value) is str else f"returned {_kind(value)}; expected a string"


INT: Schema = _Int()
FLOAT: Schema = _Float()
BOOL: Schema = _Bool()
STR: Schema = _Str()


class Anything(Schema):
    text = "anything"

    def problem(self, value):
        return None


class Optional(Schema):
    def __init__(self, inner: Schema) -> None:
        self.inner = inner
        self.text = f"{inner.text} or None"

    def problem(self, value):
        return None if value is None else self.inner.problem(value)


class TupleOf(Schema):
    """A plain tuple whose items all fit ``item`` (any length unless ``length``)."""

    def __init__(self, item: Schema, length: int | None = None) -> None:
        self.item, self.length = item, length
        self.text = f"a tuple of {item.text.removeprefix('an ').removeprefix('a ')}s"

    def problem(self, value):
        if type(value) is not tuple:
            return f"returned {_kind(value)}; expected {self.text}"
        if self.length is not None and len(value) != self.length:
            return f"returned a tuple of {len(value)} items; expected {self.length}"
        for i, item in enumerate(value):
            why = self.item.problem(item)
            if why:
                return f"item {i}: {why}"
        return None


class ListOf(Schema):
    def __init__(self, item: Schema, length: int | None = None) -> None:
        self.item, self.length = item, length
        self.text = f"a list of {item.text.removeprefix('an ').removeprefix('a ')}s"

    def problem(self, value):
        if type(value) is not list:
            return f"returned {_kind(value)}; expected {self.text}"
        if self.length is not None and len(value) != self.length:
            return f"returned a list of {len(value)} items; expected {self.length}"
        for i, item in enumerate(value):
            why = self.item.problem(item)
            if why:
                return f"item {i}: {why}"
        return None


class Tuple(Schema):
    """A plain tuple of fixed length, each item with its own schema."""

    def __init__(self, *items: Schema) -> None:
        self.items = items
        self.text = "a tuple (" + ", ".join(i.text for i in items) + ")"

    def problem(self, value):
        if type(value) is not tuple:
            return f"returned {_kind(value)}; expected {self.text}"
        if len(value) != len(self.items):
            return f"returned a tuple of {len(value)} items; expected {len(self.items)}"
        for i, (item, schema) in enumerate(zip(value, self.items)):
            why = schema.problem(item)
            if why:
                return f"item {i}: {why}"
        return None


class Dict(Schema):
    """A dict with exactly these keys (str), each value with its own schema."""

    def __init__(self, **fields: Schema) -> None:
        self.fields = fields
        self.text = "a dict with keys " + ", ".join(fields)

    def problem(self, value):
        if type(value) is not dict:
            return f"returned {_kind(value)}; expected {self.text}"
        if set(value) != set(self.fields):
            return f"keys {sorted(map(str, value))} differ from {sorted(self.fields)}"
        for key, schema in self.fields.items():
            why = schema.problem(value[key])
            if why:
                return f"{key}: {why}"
        return None


class RecordOf(Schema):
    """A dataclass or named tuple of the given class name with these fields."""

    def __init__(self, name: str, kind: str, **fields: Schema) -> None:
        self.name, self.kind, self.fields = name, kind, fields
        noun = "named tuple" if kind == "namedtuple" else "dataclass"
        self.text = f"a {name} {noun}"

    def problem(self, value):
        if not isinstance(value, Record) or value.kind != self.kind or value.name != self.name:
            return f"returned {_kind(value)}; expected {self.text}"
        names = value.field_names()
        for field, schema in self.fields.items():
            if field not in names:
                return f"{self.name} has no field {field!r}"
            why = schema.problem(value.get(field))
            if why:
                return f"{self.name}.{field}: {why}"
        return None


class Tensor(Schema):
    """A plain ``torch.Tensor``; optionally of one dtype, shape and device."""

    def __init__(self, dtype: torch.dtype | None = None, shape: tuple[int, ...] | None = None,
                 device: str | None = None, finite: bool = True) -> None:
        self.dtype, self.shape, self.device, self.finite = dtype, shape, device, finite
        self.text = "a tensor" if dtype is None else f"a {str(dtype).removeprefix('torch.')} tensor"

    def problem(self, value):
        if not isinstance(value, torch.Tensor):
            return f"returned {_kind(value)}; expected {self.text}"
        if self.dtype is not None and value.dtype != self.dtype:
            return f"returned {_kind(value)}; expected {self.text}"
        if self.shape is not None and tuple(value.shape) != tuple(self.shape):
            return f"returned a tensor of shape {tuple(value.shape)}; expected shape {tuple(self.shape)}"
        device = getattr(value, "wire_device", value.device.type)
        if self.device is not None and device != self.device:
            return f"returned a tensor on {device}; expected one on {self.device}"
        if self.finite and value.dtype.is_floating_point and value.numel():
            if not bool(torch.isfinite(value.to(torch.float64)).all()):
                return "returned a tensor with NaN or infinite values"
        return None


# --------------------------------------------------------------------------- comparison
@dataclass(frozen=True)
class Compare:
    """How two answers are compared; ``describe`` is shown in failure messages."""

    rel: float = 0.0
    abs: float = 0.0

    @property
    def exact(self) -> bool:
        return self.rel == 0.0 and self.abs == 0.0

    def describe(self) -> str:
        if self.exact:
            return "compared exactly"
        parts = []
        if self.rel:
            parts.append(f"relative tolerance {self.rel:g}")
        if self.abs:
            parts.append(f"absolute tolerance {self.abs:g}")
        return "compared with " + " and ".join(parts)


EXACT = Compare()


def close(rel: float = 1e-9, abs: float = 0.0) -> Compare:  # noqa: A002
    return Compare(rel=rel, abs=abs)


def differs(got: Any, expected: Any, how: Compare) -> str | None:
    """None if ``got`` equals ``expected`` under ``how``, else a short note on where they differ."""
    return _differs(got, expected, how, "")


def _at(path: str) -> str:
    return f" at {path}" if path else ""


def _differs(got: Any, expected: Any, how: Compare, path: str) -> str | None:
    if isinstance(expected, torch.Tensor):
        why = _tensor_differs(got, expected, how)
        return f"{why}{_at(path)}" if why else None
    if type(expected) is float or (type(expected) is int and type(got) is float):
        if type(got) not in (int, float):
            return f"different type{_at(path)}"
        if math.isnan(expected) and math.isnan(got):
            return None
        if how.exact:
            return None if got == expected else f"different value{_at(path)}"
        ok = math.isclose(got, expected, rel_tol=how.rel, abs_tol=how.abs)
        return None if ok else f"different value{_at(path)}"
    if type(expected) in (tuple, list):
        if type(got) is not type(expected):
            return f"different type{_at(path)}"
        if len(got) != len(expected):
            return f"{len(got)} items instead of {len(expected)}{_at(path)}"
        for i, (g, e) in enumerate(zip(got, expected)):
            why = _differs(g, e, how, f"{path}[{i}]")
            if why:
                return why
        return None
    if isinstance(expected, np.ndarray):
        if not isinstance(got, np.ndarray) or got.dtype != expected.dtype or got.shape != expected.shape:
            return f"different type, dtype or shape{_at(path)}"
        same = np.array_equal(got, expected) if how.exact else np.allclose(
            got, expected, rtol=how.rel, atol=how.abs, equal_nan=True)
        return None if same else f"different values{_at(path)}"
    if isinstance(expected, Record):
        if not isinstance(got, Record) or got.name != expected.name:
            return f"different type{_at(path)}"
        for field, value in expected.fields:
            try:
                mine = got.get(field)
            except KeyError:
                return f"missing field {field}"
            why = _differs(mine, value, how, f"{path}.{field}" if path else field)
            if why:
                return why
        return None
    if type(expected) is dict:
        if type(got) is not dict or set(got) != set(expected):
            return f"different keys{_at(path)}"
        for key, value in expected.items():
            why = _differs(got[key], value, how, f"{path}[{key!r}]")
            if why:
                return why
        return None
    if type(got) is not type(expected):
        return f"different type{_at(path)}"
    return None if got == expected else f"different value{_at(path)}"


def _tensor_differs(got: Any, expected: torch.Tensor, how: Compare) -> str | None:
    if not isinstance(got, torch.Tensor):
        return "not a tensor"
    if got.dtype != expected.dtype:
        return f"dtype {got.dtype} instead of {expected.dtype}"
    if got.shape != expected.shape:
        return f"shape {tuple(got.shape)} instead of {tuple(expected.shape)}"
    if got.numel() == 0:
        return None
    if how.exact or not expected.dtype.is_floating_point:
        if torch.equal(got, expected):
            return None
        bad = (got != expected).reshape(-1).nonzero()
        return f"{int(bad.numel())} of {got.numel()} values differ"
    g, e = got.to(torch.float64), expected.to(torch.float64)
    ok = (g - e).abs() <= how.abs + how.rel * e.abs()
    ok |= torch.isnan(g) & torch.isnan(e)
    if bool(ok.all()):
        return None
    worst = int(((g - e).abs() * (~ok)).reshape(-1).argmax())
    index = tuple(int(i) for i in np.unravel_index(worst, tuple(got.shape)))
    return (f"{int((~ok).sum())} of {got.numel()} values differ; "
            f"worst at {index}: {g.reshape(-1)[worst].item():.8g} vs {e.reshape(-1)[worst].item():.8g}")


def beyond(got: torch.Tensor, expected: torch.Tensor, tolerance: torch.Tensor) -> str | None:
    """Elementwise tolerances (one per value, e.g. an error bound that grows with the
    inputs): None if every value is within its own, else where the worst one is."""
    error = (got.double() - expected.double()).abs()
    bad = error > tolerance
    if not bool(bad.any()):
        return None
    worst = int(((error - tolerance) * bad).reshape(-1).argmax())
    index = tuple(int(i) for i in torch.unravel_index(torch.tensor(worst), got.shape))
    digits = 17 if expected.dtype == torch.float64 else 9  # enough to tell the two apart
    return (f"{int(bad.sum())} of {got.numel()} values differ; worst at {index}: "
            f"{got.reshape(-1)[worst].item():.{digits}g} vs {expected.reshape(-1)[worst].item():.{digits}g}")


# --------------------------------------------------------------------------- asserting
def check(value: Any, schema: Schema, function: str, inputs: str = "") -> Any:
    """Raise ``Mismatch`` if ``value`` does not fit ``schema``; else return it."""
    why = schema.problem(value)
    if why:
        raise Mismatch(function, f"wrong type: {why}", inputs=inputs, got=value,
                       expected=schema.text, show_values=False)
    return value


def agree(impl: Door, oracle: Door, function: str, *args: Any, returns: Schema,
          compare: Compare = EXACT) -> Any:
    """Call ``function(*args)`` on both doors; the implementation must match the oracle."""
    return agree_run(impl, oracle, "call", function, *args, returns=returns, compare=compare,
                     subject=function)


def agree_run(impl: Door, oracle: Door, probe: str, *args: Any, returns: Schema,
              compare: Compare = EXACT, subject: str | None = None) -> Any:
    """Run probe ``probe(*args)`` on both doors; the implementation must match the oracle."""
    subject = subject or probe
    expected = oracle.run(probe, *args)
    got = impl.run(probe, *args)
    if returns.problem(got) is not None:
        check(got, returns, subject, describe_call(probe, args))
    why = differs(got, expected, compare)
    if why:
        problem = "wrong value" if why == "different value" else f"wrong value: {why}"
        raise Mismatch(subject, problem, inputs=describe_call(probe, args), got=got,
                       expected=expected, how=compare.describe())
    return got


def ask(impl: Door, oracle: Door | None, probe: str, *args: Any) -> tuple[Any, Any, str]:
    """Both answers to one probe (the oracle's None if there is no oracle to ask), and the
    inputs as a failure message shows them: for tests that check a probe's report field by field."""
    expected = oracle.run(probe, *args) if oracle is not None else None
    got = impl.run(probe, *args)
    return got, expected, describe_call(probe, args)


def same(function: str, got: Any, expected: Any, problem: str, inputs: str, how: Compare = EXACT) -> None:
    """``got`` must equal ``expected`` under ``how``; else ``problem``, with both values."""
    why = differs(got, expected, how)
    if why:
        detail = "" if why.startswith("different value") else f" ({why})"
        raise Mismatch(function, problem + detail, inputs=inputs, got=got, expected=expected,
                       how="" if how.exact else how.describe())


def fail(function: str, problem: str, inputs: str = "") -> None:
    """A problem that needs no values shown (a missing key, a wrong structure)."""
    raise Mismatch(function, problem, inputs=inputs, show_values=False)


def require(condition: bool, function: str, problem: str, *, inputs: str = "",
            got: Any = None, expected: Any = None, show_values: bool = True) -> None:
    """A property check in the same message format as ``agree``."""
    if not condition:
        raise Mismatch(function, problem, inputs=inputs, got=got, expected=expected,
                       show_values=show_values)
