"""What type an answer must have, checked strictly, with a plain-words reason when it does not.

A schema looks at exact types (``type(x) is int``, never ``isinstance``) of values
the wire already decoded, so nothing an implementation made can take part:

    INT, FLOAT, BOOL, STR, NONE, DTYPE, Anything()
    Optional(s), TupleOf(s), ListOf(s), DictOf(k, v), Tuple(s1, s2, ...), Dict(key=s, ...)
    RecordOf("FloatFormat", "dataclass", exponent_bits=INT, ...), Tensor(torch.float32, (3, 4))

``problem(value)`` is None when the value fits. The schemas of the spec's
functions come from the stubs' own annotations (``grader.harness.spec``).
"""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np
import torch

from grader.harness.wire import Opaque, Record


def _dtype_tensor(dtype: torch.dtype) -> str:
    """ "a float32 tensor", "an int64 tensor" (the article as the dtype's name is said)."""
    name = str(dtype).removeprefix("torch.")
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name} tensor"


def kind_of(value: Any) -> str:
    """A value's type in the words a student would use: "a tuple", "None", "a float32 tensor"."""
    if isinstance(value, Opaque):
        return f"an object of type {value.type_name}" + (f" ({value.why})" if value.why else "")
    if isinstance(value, Record):
        return f"a {value.name} {'named tuple' if value.kind == 'namedtuple' else 'dataclass'}"
    if isinstance(value, torch.Tensor):
        return _dtype_tensor(value.dtype)
    if isinstance(value, np.ndarray):
        return "a numpy array"
    if isinstance(value, torch.dtype):
        return "a torch.dtype"
    if value is None:
        return "None"
    names = {bool: "a bool", int: "an int", float: "a float", str: "a string",
             tuple: "a tuple", list: "a list", dict: "a dict", bytes: "bytes"}
    return names.get(type(value), f"a {type(value).__name__}")


class Schema:
    """``problem(value)`` is None when the value fits, else a plain-words reason."""

    text = "?"

    def problem(self, value: Any) -> str | None:
        raise NotImplementedError

    def plain(self, value: Any) -> Any:
        """``value`` as the plain data this schema means, where a returned value is a richer form of it
        (a named tuple where a tuple is due); else ``value`` itself."""
        return value

    def __repr__(self) -> str:
        return self.text


def as_tuple(value: Any) -> Any:
    """A named tuple's fields as the tuple it is (``Grads(gx, gw)`` is ``(gx, gw)``: it unpacks, indexes and
    compares as one); anything else as it is. Plain data either way: its fields crossed the wire."""
    if isinstance(value, Record) and value.kind == "namedtuple":
        return tuple(field for _, field in value.fields)
    return value


def _noun(text: str) -> str:
    return text.removeprefix("an ").removeprefix("a ")


class _Int(Schema):
    text = "an int"

    def problem(self, value):
        if type(value) is int:
            return None
        if type(value) is float and value.is_integer():
            return f"returned the float {value!r}; expected an int (an exact count)"
        return f"returned {kind_of(value)}; expected an int{_item(value)}"


class _Float(Schema):
    """A real number: ``float``, or an ``int`` (its exact value). Never NaN."""

    text = "a float"

    def __init__(self, allow_inf: bool = False) -> None:
        self.allow_inf = allow_inf

    def problem(self, value):
        if type(value) not in (int, float):
            return f"returned {kind_of(value)}; expected a float{_item(value)}"
        if type(value) is float and math.isnan(value):
            return "returned NaN; expected a number"
        if not self.allow_inf and type(value) is float and math.isinf(value):
            return f"returned {value!r}; expected a finite number"
        if type(value) is int and abs(value) > _FLOAT_MAX:  # no float holds it: not a real number's value here
            return f"returned an int of {value.bit_length()} bits, beyond any float; expected a finite number"
        return None


_FLOAT_MAX = int(sys.float_info.max)


def _item(value: Any) -> str:
    """Where a one-element tensor came back for a number, how to make the number of it."""
    return " (a Python number: .item() gives a one-element tensor's)" \
        if isinstance(value, torch.Tensor) and value.numel() == 1 else ""


class _Exact(Schema):
    def __init__(self, kind: type, text: str, hint: str = "") -> None:
        self.kind, self.text, self.hint = kind, text, hint

    def problem(self, value):
        return None if type(value) is self.kind else f"returned {kind_of(value)}; expected {self.text}{self.hint}"


class _None(Schema):
    text = "None"

    def problem(self, value):
        return None if value is None else f"returned {kind_of(value)}; expected None"


INT: Schema = _Int()
FLOAT: Schema = _Float()
FLOAT_OR_INF: Schema = _Float(allow_inf=True)  # a loss that overflowed, as the reference's did
BOOL: Schema = _Exact(bool, "a bool", " (True or False)")
STR: Schema = _Exact(str, "a string")
BYTES: Schema = _Exact(bytes, "bytes")
DTYPE: Schema = _Exact(torch.dtype, "a torch.dtype")
NONE: Schema = _None()


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

    def plain(self, value):
        return self.inner.plain(value)


class OneOf(Schema):
    """Any of several schemas (a union that is not just "or None")."""

    def __init__(self, *options: Schema) -> None:
        self.options = options
        self.text = " or ".join(o.text for o in options)

    def problem(self, value):
        reasons = [o.problem(value) for o in self.options]
        return None if any(r is None for r in reasons) else f"returned {kind_of(value)}; expected {self.text}"


def items(count: int) -> str:
    """``count`` items, in words (``1 item``, ``3 items``)."""
    return f"{count} item{'' if count == 1 else 's'}"


class _Sequence(Schema):
    kind: type = tuple
    noun = "tuple"

    def __init__(self, item: Schema, length: int | None = None) -> None:
        self.item, self.length = item, length
        self.text = f"a {self.noun} of {_noun(item.text)}s"

    def problem(self, value):
        if type(value) is not self.kind:
            return f"returned {kind_of(value)}; expected {self.text}"
        if self.length is not None and len(value) != self.length:
            return f"returned a {self.noun} of {items(len(value))}; expected {self.length}"
        for i, item in enumerate(value):
            why = self.item.problem(item)
            if why:
                return f"item {i}: {why}"
        return None


class TupleOf(_Sequence):
    """A plain tuple whose items all fit ``item`` (any length unless ``length``)."""

    def plain(self, value):
        return as_tuple(value)


class ListOf(_Sequence):
    kind, noun = list, "list"


class Tuple(Schema):
    """A plain tuple of fixed length, each item with its own schema."""

    def __init__(self, *items: Schema) -> None:
        self.items = items
        self.text = "a tuple (" + ", ".join(i.text for i in items) + ")"

    def plain(self, value):
        return as_tuple(value)

    def problem(self, value):
        if type(value) is not tuple:
            return f"returned {kind_of(value)}; expected {self.text}"
        if len(value) != len(self.items):
            return f"returned a tuple of {items(len(value))}; expected {len(self.items)}"
        for i, (item, schema) in enumerate(zip(value, self.items)):
            why = schema.problem(item)
            if why:
                return f"item {i}: {why}"
        return None


class DictOf(Schema):
    """A plain dict whose keys and values all fit their schemas."""

    def __init__(self, key: Schema, value: Schema, what: str = "") -> None:
        self.key, self.value = key, value
        self.text = what or f"a dict of {_noun(key.text)} -> {_noun(value.text)}"

    def problem(self, value):
        if type(value) is not dict:
            return f"returned {kind_of(value)}; expected {self.text}"
        for k, v in value.items():
            why = self.key.problem(k)
            if why:
                return f"key {k!r}: {why}"
            why = self.value.problem(v)
            if why:
                return f"[{k!r}]: {why}"
        return None


class Dict(Schema):
    """A dict with exactly these keys (str), each value with its own schema."""

    def __init__(self, **fields: Schema) -> None:
        self.fields = fields
        self.text = "a dict with keys " + ", ".join(fields)

    def problem(self, value):
        if type(value) is not dict:
            return f"returned {kind_of(value)}; expected {self.text}"
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
            return f"returned {kind_of(value)}; expected {self.text}"
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
        self.text = "a tensor" if dtype is None else _dtype_tensor(dtype)

    def problem(self, value):
        if not isinstance(value, torch.Tensor):
            return f"returned {kind_of(value)}; expected {self.text}"
        if self.dtype is not None and value.dtype != self.dtype:
            return f"returned {kind_of(value)}; expected {self.text}"
        if self.shape is not None and tuple(value.shape) != tuple(self.shape):
            return f"returned a tensor of shape {tuple(value.shape)}; expected shape {tuple(self.shape)}"
        device = getattr(value, "wire_device", value.device.type)
        if self.device is not None and device != self.device:
            return f"returned a tensor on {device}; expected one on {self.device}"
        if self.finite and value.dtype.is_floating_point and value.numel() and not all_finite(value):
            return "returned a tensor with NaN or infinite values"
        return None


_SUMMABLE = (torch.float64, torch.float32, torch.float16, torch.bfloat16)


def all_finite(t: torch.Tensor) -> bool:
    """Whether every value of a floating tensor is finite. A finite sum proves it (NaN and the
    infinities survive addition), at a twentieth of ``isfinite``'s cost on a large tensor; only a
    sum that is not finite (a NaN, an infinity, or finite values whose sum overflows) is looked
    at value by value."""
    if t.dtype in _SUMMABLE and math.isfinite(t.sum().item()):
        return True
    return bool(torch.isfinite(t if t.dtype in _SUMMABLE else t.to(torch.float64)).all())


class NdArray(Schema):
    text = "a numpy array"

    def problem(self, value):
        return None if isinstance(value, np.ndarray) else f"returned {kind_of(value)}; expected {self.text}"
