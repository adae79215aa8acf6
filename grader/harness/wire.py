"""The wire: the only format in which values cross the door.

Everything a test sends to an implementation, and everything it gets back, is
encoded here into JSON text and decoded on the other side. The decoder builds
nothing but plain values:

    None, bool, int, float, str, list, tuple, dict,
    torch.dtype, torch.Tensor (exact class, CPU, no autograd history),
    numpy.ndarray (numeric dtypes only),
    bytes (a file's contents, say),
    Record (a dataclass or named tuple, as name + fields),
    Opaque (anything else, kept only as the name of its type).

Messages between processes are *packed* (``pack``/``unpack``): the same JSON, but a
large tensor's bytes travel raw after the text instead of in base64 inside it (a
model's weights are megabytes: base64 and JSON's escaping of the string cost more
than the call that made them). Keys and recordings stay JSON text.

So a value that arrives can never run code: no ``__eq__`` that lies, no tensor
subclass with a ``__torch_function__``, no pickle. The encoder runs on the
implementation's side and is lenient about harmless look-alikes (``torch.Size``
becomes a tuple, numpy scalars become Python scalars, a StrEnum's or IntEnum's member its
text or number, an ``nn.Parameter`` its data); the decoder runs on the trusted side and is strict about structure.
"""

from __future__ import annotations

import base64
import enum
import binascii
import dataclasses
import json
import math
import struct
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from grader.harness.show import printable

MAX_DEPTH = 32
# an int sent as JSON's text: Python reads no longer one back (sys.get_int_max_str_digits, 4300 digits); no
# answer is near this (Part 4's largest counts are a few hundred bits)
LONGEST_INT_BITS = 13_000

# Where no implementation code runs (the grading process of a sandboxed run), a tensor remembers its
# own encoding: the examples' tensors are encoded again for every question that carries them (its
# key, the request), and rebuilding the bytes of the same tensor was a fifth of a replay's time. The
# memo is keyed by the tensor's version counter (bumped by every in-place change, views included),
# its storage, shape, dtype and requires_grad. Never where student code runs: it could change a
# tensor behind the counter's back (through a numpy view) and be reported as it was.
REMEMBER_ENCODINGS = False
_MEMO = "_wire_encoding"
MAX_BYTES = 64 * 2**20

# dtypes that may cross as tensors: name -> dtype (looked up, never eval'd)
TENSOR_DTYPES: dict[str, torch.dtype] = {
    str(d).removeprefix("torch."): d
    for d in (
        torch.float64, torch.float32, torch.float16, torch.bfloat16,
        torch.float8_e4m3fn, torch.float8_e5m2,
        torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool,
        torch.complex64, torch.complex128,
    )
}
# the tensor dtypes numpy has (bfloat16 and the float8s it has not)
_NUMPY_READABLE = frozenset(d for d in TENSOR_DTYPES.values() if d not in (
    torch.bfloat16, torch.float8_e4m3fn, torch.float8_e5m2))
# any torch.dtype may cross as a value (an argument such as ``torch.float16``)
ALL_DTYPES: dict[str, torch.dtype] = {
    name: value for name, value in vars(torch).items() if isinstance(value, torch.dtype)
}
NUMPY_DTYPES = frozenset(
    ["float64", "float32", "float16", "int64", "int32", "int16", "int8",
     "uint64", "uint32", "uint16", "uint8", "bool"]
)


class WireError(ValueError):
    """The bytes are not a well-formed message of this format."""


@dataclass(frozen=True)
class Record:
    """A dataclass instance or named tuple that crossed the wire: its class name and fields."""

    kind: str  # "dataclass" or "namedtuple"
    name: str
    fields: tuple[tuple[str, Any], ...]

    def get(self, field: str) -> Any:
        for key, value in self.fields:
            if key == field:
                return value
        raise KeyError(field)

    def field_names(self) -> tuple[str, ...]:
        return tuple(k for k, _ in self.fields)

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.fields)
        return f"{self.name}({inner})"


@dataclass(frozen=True)
class Opaque:
    """A value the wire does not carry; only the name of its type survives."""

    type_name: str
    why: str = ""

    def __repr__(self) -> str:
        return f"<{self.type_name} object>"


# --------------------------------------------------------------------------- encode
# made once: json.dumps and json.loads build a new encoder or decoder at every call given any option,
# which cost as much as the encoding of a typical message
_TEXT = json.JSONEncoder(separators=(",", ":"), allow_nan=False)
_KEY_TEXT = json.JSONEncoder(separators=(",", ":"), sort_keys=True, allow_nan=False)


def encode(value: Any) -> str:
    """Plain data -> JSON text. Never raises for odd values: they become Opaque."""
    return _TEXT.encode(_enc(value, 0))


SIDECAR_MIN = 1024  # a packed tensor of at least this many bytes travels raw, after the text
_LENGTH = struct.Struct(">I")


def pack(value: Any) -> bytes:
    """Plain data -> one message: the JSON text's length (4 bytes), the text, then the raw bytes
    of its large tensors, each referred to in the text by offset and length."""
    tail: list[bytes] = []
    text = _TEXT.encode(_enc(value, 0, tail)).encode("utf-8")
    return b"".join([_LENGTH.pack(len(text)), text, *tail])


def _float(x: float) -> Any:
    if math.isfinite(x):
        return x
    return {"$f": "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")}


def _named_tuple_fields(t: type, value: tuple) -> tuple[str, ...] | None:
    """The field names of a named tuple's class, one per item; None for any other tuple."""
    names = next((vars(c)["_fields"] for c in t.__mro__ if "_fields" in vars(c)), None)
    if type(names) is tuple and all(type(n) is str for n in names) and len(names) == tuple.__len__(value):
        return names
    return None


def _type_name(value: Any) -> str:
    cls = type(value)
    module = getattr(cls, "__module__", "") or ""
    qual = getattr(cls, "__qualname__", cls.__name__)
    return qual if module in ("builtins", "") else f"{module}.{qual}"


def _enc(value: Any, depth: int, tail: list[bytes] | None = None) -> Any:
    if depth > MAX_DEPTH:
        return {"$opaque": "too deeply nested"}
    t = type(value)
    if value is None or t is bool or t is str:
        return value
    if t is int:
        if value.bit_length() > LONGEST_INT_BITS:  # past what JSON's text of an int may hold
            return {"$opaque": "int", "why": f"an integer of {value.bit_length()} bits, too long to send back"}
        return value
    if t is float:
        return _float(value)
    # harmless look-alikes, converted by exact type
    if isinstance(value, enum.Enum) and isinstance(value, (str, int)) and not isinstance(value, bool):
        # a StrEnum's or an IntEnum's member: its own text or number, read through the base type's slot (never
        # the member's __str__, __eq__ or value, which its class may define as it likes)
        return str.__str__(value) if isinstance(value, str) else _enc(int.__int__(value), depth + 1, tail)
    if isinstance(value, np.generic) and t.__module__ == "numpy":
        if isinstance(value, np.bool_):
            return bool(value)
        if isinstance(value, np.integer):
            return int(value)
        if isinstance(value, np.floating):
            return _float(float(value))
    if t is torch.Size:
        return {"$t": [int(v) for v in tuple.__iter__(value)]}
    if t is tuple:
        return {"$t": [_enc(v, depth + 1, tail) for v in value]}
    if t is list:
        return [_enc(v, depth + 1, tail) for v in value]
    if t is dict:
        return {"$d": [[_enc(k, depth + 1, tail), _enc(v, depth + 1, tail)] for k, v in value.items()]}
    if t is bytes:
        return {"$b": base64.b64encode(value).decode("ascii")}
    if t is torch.dtype:
        return {"$dtype": str(value).removeprefix("torch.")}
    if t is torch.Tensor or t is torch.nn.Parameter:
        return _enc_tensor(value, tail)
    if t is np.ndarray or t is np.memmap:
        return _enc_ndarray(value)
    if t is Record:  # already decoded (a memoised answer): encode it as it first came
        fields = [[k, _enc(v, depth + 1, tail)] for k, v in value.fields]
        return {"$nt" if value.kind == "namedtuple" else "$dc": value.name, "fields": fields}
    if t is Opaque:
        return {"$opaque": value.type_name, "why": value.why}
    if t.__name__ == "Digest" and t.__module__ == "grader.harness.digest":  # recordings only
        from grader.harness import digest

        return digest.to_wire(value)
    names = _named_tuple_fields(t, value) if isinstance(value, tuple) else None
    if names is not None:  # a named tuple, or a subclass of one (`class Grads(namedtuple(...)): __slots__ = ()`):
        # its items as the tuple holds them, not as it says
        fields = [[k, _enc(v, depth + 1, tail)] for k, v in zip(names, tuple.__iter__(value))]
        return {"$nt": t.__name__, "fields": fields}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = [[f.name, _enc(getattr(value, f.name), depth + 1, tail)] for f in dataclasses.fields(value)]
        return {"$dc": t.__name__, "fields": fields}
    if isinstance(value, tuple):  # a class of tuple's own (``class Grads(tuple)``) is the tuple it holds, read
        return {"$t": [_enc(v, depth + 1, tail) for v in tuple.__iter__(value)]}  # as tuple holds it
    if isinstance(value, list):
        return [_enc(v, depth + 1, tail) for v in list.__iter__(value)]
    if isinstance(value, dict):  # a class of dict's own (``defaultdict``, ``OrderedDict``) is the dict it holds, read
        return {"$d": [[_enc(k, depth + 1, tail), _enc(v, depth + 1, tail)]  # as dict holds it
                       for k, v in dict.items(value)]}
    if isinstance(value, torch.Tensor):
        return {"$opaque": _type_name(value), "why": "a tensor subclass"}
    return {"$opaque": _type_name(value)}


def _memo_key(t: torch.Tensor) -> tuple:
    return (t._version, t.data_ptr(), tuple(t.shape), t.dtype, t.requires_grad)


def _remember(t: torch.Tensor, encoded: dict) -> None:
    try:
        setattr(t, _MEMO, (_memo_key(t), encoded))
    except (AttributeError, RuntimeError):
        pass


def _enc_tensor(t: torch.Tensor, tail: list[bytes] | None = None) -> Any:
    if REMEMBER_ENCODINGS:
        memo = t.__dict__.get(_MEMO)
        if memo is not None and memo[0] == _memo_key(t):
            return memo[1]
    encoded = _encode_tensor(t, tail)
    if REMEMBER_ENCODINGS and "data" in encoded:
        _remember(t, encoded)
    return encoded


def _encode_tensor(t: torch.Tensor, tail: list[bytes] | None = None) -> Any:
    """``tail``: packing a message (``pack``): a large tensor's bytes go there, raw."""
    name = str(t.dtype).removeprefix("torch.")
    if name not in TENSOR_DTYPES:
        return {"$opaque": f"tensor of dtype {name}"}
    try:
        data = torch.Tensor.detach(t)
        if data.device.type != "cpu":
            data = data.cpu()
        if data.dtype in _NUMPY_READABLE and not data.is_conj() and not data.is_neg():
            # numpy writes row-major bytes whatever the strides: one copy, a third of the time
            # of the copy below for a small tensor, and a fortieth for a megabyte
            raw = data.numpy().tobytes()
        else:
            # a fresh row-major copy: .contiguous() keeps odd strides on size-1 dims
            flat = torch.empty(data.shape, dtype=data.dtype).copy_(data).reshape(-1)
            raw = flat.view(torch.uint8).numpy().tobytes() if flat.numel() else b""
    except Exception as exc:  # noqa: BLE001 - whatever the tensor is, encoding must not fail
        return {"$opaque": "tensor", "why": f"could not be read: {type(exc).__name__}"}
    encoded = {
        "$tensor": name,
        "shape": [int(s) for s in t.shape],
        # a tensor that already crossed keeps what it was on the other side
        "device": str(getattr(t, "wire_device", t.device.type)),
        "requires_grad": bool(getattr(t, "wire_requires_grad", t.requires_grad)),
    }
    if tail is not None and len(raw) >= SIDECAR_MIN:
        encoded["at"] = [sum(map(len, tail)), len(raw)]
        tail.append(raw)
    else:
        encoded["data"] = base64.b64encode(raw).decode("ascii")
    return encoded


def _enc_ndarray(a: np.ndarray) -> Any:
    name = str(a.dtype)
    if name not in NUMPY_DTYPES:
        return {"$opaque": f"numpy array of dtype {name}"}
    raw = np.ascontiguousarray(a).tobytes()
    return {
        "$ndarray": name,
        "shape": [int(s) for s in a.shape],
        "data": base64.b64encode(raw).decode("ascii"),
    }


# --------------------------------------------------------------------------- decode
# What an answer may cost the trusted side to read. An implementation writes its own answers (its code
# can reach the channel), and decoding runs in the grading process, outside every limit a worker has:
# so an answer's text is small (large tensors travel raw in the tail, which each byte of is read once)
# and holds a bounded number of lists and dicts. Measured: the reference's largest answer is 11 KB of
# text with 125 of them; 4 MB of "[]," would have been a million, and seconds of decoding.
ANSWER_TEXT_BYTES = 1 * 2**20
ANSWER_CONTAINERS = 20_000


class _Tail:
    """A packed message's raw bytes, handed out in order, each byte once; and a budget of containers."""

    def __init__(self, view: memoryview, containers: int | None) -> None:
        self.view, self.used, self.containers = view, 0, containers

    def take(self, at: Any) -> memoryview:
        at = _list(at)
        if len(at) != 2 or not all(type(v) is int and v >= 0 for v in at) or at[0] + at[1] > len(self.view):
            raise WireError("a tensor refers to bytes the message does not have")
        if at[0] != self.used:  # pack lays tensors out one after another: never the same bytes twice
            raise WireError("a tensor refers to bytes out of order or already read")
        self.used += at[1]
        return self.view[at[0]:at[0] + at[1]]

    def spend(self) -> None:
        if self.containers is not None:
            self.containers -= 1
            if self.containers < 0:
                raise WireError(f"more than {ANSWER_CONTAINERS} lists and dicts")


def unpack(message: bytes, *, answer: bool = False) -> Any:
    """One packed message (``pack``) -> plain data. As strict as ``decode``: a tensor may refer
    only to bytes after the text, and exactly as many as its shape and dtype take, each byte read
    once. ``answer``: the message came from an implementation, and its reading is bounded too
    (``ANSWER_TEXT_BYTES``, ``ANSWER_CONTAINERS``)."""
    if len(message) > MAX_BYTES:
        raise WireError(f"message of {len(message)} bytes exceeds {MAX_BYTES}")
    if len(message) < _LENGTH.size:
        raise WireError("message too short")
    (length,) = _LENGTH.unpack_from(message)
    if length > len(message) - _LENGTH.size:
        raise WireError("message shorter than its text")
    if answer and length > ANSWER_TEXT_BYTES:
        raise WireError(f"an answer of {length} bytes of text exceeds {ANSWER_TEXT_BYTES} "
                        "(large tensors travel raw, after the text)")
    try:
        text = message[_LENGTH.size:_LENGTH.size + length].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WireError(f"not UTF-8: {exc}") from None
    tail = _Tail(memoryview(message)[_LENGTH.size + length:], ANSWER_CONTAINERS if answer else None)
    return decode(text, tail=tail)


def decode(text: str | bytes, *, digests: bool = False, tail: _Tail | None = None) -> Any:
    """JSON text -> plain data. Strict: anything not of this format is a WireError.

    ``digests``: the text is a recording the trusted side wrote, which may hold
    fingerprints of hidden answers (``grader.harness.digest``); nothing an
    implementation sends may.
    """
    if len(text) > MAX_BYTES:
        raise WireError(f"message of {len(text)} bytes exceeds {MAX_BYTES}")
    try:
        if type(text) is str and not text.startswith("\ufeff"):  # what json.loads checks first
            obj = _READ.decode(text)
        else:
            obj = json.loads(text, parse_constant=_no_constants)
    except WireError:
        raise
    except (ValueError, RecursionError) as exc:
        raise WireError(f"not JSON: {exc}") from None
    try:
        return _dec(obj, 0, digests, tail)
    except WireError:
        raise
    except (KeyError, ValueError, TypeError, IndexError, RecursionError, OverflowError, RuntimeError) as exc:
        # whatever the bytes, the caller sees one kind of refusal
        raise WireError(f"malformed message ({type(exc).__name__}: {exc})"[:200]) from None


def _no_constants(name: str) -> Any:
    raise WireError(f"bare {name} is not allowed")


_READ = json.JSONDecoder(parse_constant=_no_constants)


_PLAIN = frozenset((type(None), bool, int, float, str))  # JSON values that decode to themselves


def _dec(obj: Any, depth: int, digests: bool = False, tail: _Tail | None = None) -> Any:
    if depth > MAX_DEPTH + 2:
        raise WireError("nested too deeply")
    t = type(obj)
    if t in _PLAIN:
        return obj
    if tail is not None:
        tail.spend()
    if t is list:
        if depth < MAX_DEPTH + 2:  # plain items decided here: a call each was most of decoding's time
            return [v if type(v) in _PLAIN else _dec(v, depth + 1, digests, tail) for v in obj]
        return [_dec(v, depth + 1, digests, tail) for v in obj]
    if t is not dict or len(obj) == 0:
        raise WireError(f"unexpected JSON value {obj!r:.60}")
    tag = next(iter(obj))
    if tag == "$tensor":
        return _dec_tensor(obj, tail)
    if tag == "$t":
        items = _list(obj["$t"])
        if depth < MAX_DEPTH + 2:
            return tuple([v if type(v) in _PLAIN else _dec(v, depth + 1, digests, tail) for v in items])
        return tuple([_dec(v, depth + 1, digests, tail) for v in items])
    if tag == "$f":
        return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}[_str(obj["$f"])]
    if tag == "$d":
        out = {}
        for pair in _list(obj["$d"]):
            key, value = _pair(pair, tail)
            key = _key(_dec(key, depth + 1, digests, tail), answer=tail is not None and tail.containers is not None)
            out[key] = _dec(value, depth + 1, digests, tail)
        return out
    if tag == "$b":
        return base64.b64decode(_str(obj["$b"]), validate=True)
    if tag == "$dtype":
        name = _str(obj["$dtype"])
        if name not in ALL_DTYPES:
            raise WireError(f"unknown dtype {name!r}")
        return ALL_DTYPES[name]
    if tag == "$ndarray":
        return _dec_ndarray(obj)
    if tag in ("$nt", "$dc"):
        pairs = (_pair(item, tail) for item in _list(obj["fields"]))
        fields = tuple((printable(_str(k)), _dec(v, depth + 1, digests, tail)) for k, v in pairs)
        return Record("namedtuple" if tag == "$nt" else "dataclass", printable(_str(obj[tag])), fields)
    if tag == "$opaque":  # names a class may set to any text: made printable before any message shows them
        return Opaque(printable(_str(obj["$opaque"])[:200]), printable(_str(obj.get("why", ""))[:200]))
    if tag == "$digest" and digests:
        from grader.harness import digest

        return digest.from_wire(obj)
    raise WireError(f"unknown tag {tag!r:.40}")


# An int hashes to itself modulo 2**61 - 1, so the keys k, k + M, k + 2M ... share one slot, and a dict of n
# of them takes n**2 / 2 comparisons to build: 34,000 such keys, under a megabyte of text, held the grading
# process 12 s. A tuple's hash mixes its items' and is as easy to collide. So an answer's keys are strings
# (salted at random in the grading process, which no worker shares), dtypes, floats (a hash class holds
# tens of them) and ints too small to collide; what the trusted side wrote itself (a question, a
# recording) may also use tuples and any int.
_HASH_MODULUS = 2**61 - 1
_KEYS = (str, float, bool, type(None), torch.dtype)


def _key(key: Any, *, answer: bool) -> Any:
    if type(key) in _KEYS or (type(key) is int and -_HASH_MODULUS < key < _HASH_MODULUS):
        return key
    if not answer and type(key) in (int, tuple):
        return key
    raise WireError(f"dict key {key!r:.40} of a type or size an answer may not use")


def _list(v: Any) -> list:
    if type(v) is not list:
        raise WireError("expected a list")
    return v


def _pair(v: Any, tail: _Tail | None) -> list:
    """A dict's [key, value] or a record's [name, value]: a list like any other, so it counts against an
    answer's budget."""
    if tail is not None:
        tail.spend()
    pair = _list(v)
    if len(pair) != 2:
        raise WireError("expected a pair")
    return pair


def _str(v: Any) -> str:
    if type(v) is not str:
        raise WireError("expected a string")
    return v


def _shape(v: Any) -> tuple[int, ...]:
    shape = tuple(_list(v))
    if not all(type(s) is int and s >= 0 for s in shape) or len(shape) > 64:
        raise WireError("bad shape")
    return shape


def _dec_tensor(obj: dict, tail: _Tail | None = None) -> torch.Tensor:
    name = _str(obj["$tensor"])
    if name not in TENSOR_DTYPES:
        raise WireError(f"tensor dtype {name!r} not allowed")
    dtype = TENSOR_DTYPES[name]
    shape = _shape(obj["shape"])
    raw = binascii.a2b_base64(_str(obj["data"]), strict_mode=True) if "data" in obj else _raw(obj.get("at"), tail)
    numel = math.prod(shape)
    if len(raw) != numel * dtype.itemsize:
        raise WireError("tensor data does not match its shape")
    if numel == 0:
        tensor = torch.empty(shape, dtype=dtype)
    else:
        tensor = torch.frombuffer(bytearray(raw), dtype=dtype).reshape(shape)
    # what the tensor was on the implementation's side, kept as plain attributes
    tensor.wire_device = _str(obj.get("device", "cpu"))
    tensor.wire_requires_grad = obj.get("requires_grad") is True
    if REMEMBER_ENCODINGS and "data" in obj:  # encoding it again gives back what arrived
        _remember(tensor, {"$tensor": name, "shape": list(shape), "device": tensor.wire_device,
                           "requires_grad": tensor.wire_requires_grad, "data": obj["data"]})
    return tensor


def _raw(at: Any, tail: _Tail | None) -> memoryview:
    """The bytes a packed tensor refers to: [offset, length] within the message's tail."""
    if tail is None:
        raise WireError("a tensor refers to raw bytes outside a packed message")
    return tail.take(at)


def _dec_ndarray(obj: dict) -> np.ndarray:
    name = _str(obj["$ndarray"])
    if name not in NUMPY_DTYPES:
        raise WireError(f"numpy dtype {name!r} not allowed")
    shape = _shape(obj["shape"])
    raw = base64.b64decode(_str(obj["data"]), validate=True)
    dtype = np.dtype(name)
    if len(raw) != math.prod(shape) * dtype.itemsize:
        raise WireError("array data does not match its shape")
    return np.frombuffer(raw, dtype=dtype).reshape(shape).copy()


def roundtrip(value: Any, *, answer: bool = False) -> Any:
    """Pack then unpack: what the other side of the door would see."""
    return unpack(pack(value), answer=answer)


def canonical_key(*parts: Any) -> str:
    """A stable text key for plain data (used to look recorded answers up)."""
    return _KEY_TEXT.encode(_enc(parts, 0))
