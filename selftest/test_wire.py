"""Staff check: the wire carries plain data faithfully and nothing else, and its decoder never breaks."""

import base64
import dataclasses
import json
import math
import pickle
from typing import NamedTuple

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from grader.harness import wire
from grader.harness.ask import check
from grader.harness.schema import FLOAT, INT, ListOf, Tensor, TupleOf
from grader.harness.faults import Mismatch

plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.lists(inner, max_size=4).map(tuple)
    | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20,
)


@given(plain)
def test_plain_values_round_trip_with_their_exact_types(value):
    back = wire.roundtrip(value)
    assert back == value
    assert _types(back) == _types(value)


def _types(v):
    if isinstance(v, (list, tuple)):
        return type(v), tuple(_types(x) for x in v)
    if isinstance(v, dict):
        return dict, tuple((k, _types(x)) for k, x in v.items())
    return type(v)


@pytest.mark.parametrize("dtype", list(wire.TENSOR_DTYPES.values()), ids=str)
@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3, 1)])
def test_tensors_round_trip_bit_for_bit(dtype, shape):
    source = (torch.randn(shape) * 10).to(dtype) if dtype.is_floating_point or dtype.is_complex \
        else torch.randint(0, 2 if dtype == torch.bool else 100, shape).to(dtype)
    back = wire.roundtrip(source.t() if source.dim() == 2 else source)
    assert type(back) is torch.Tensor and back.dtype == dtype and back.shape == source.shape
    assert torch.equal(back.view(torch.uint8) if dtype.itemsize == 1 and dtype.is_floating_point else back,
                       (source.view(torch.uint8) if dtype.itemsize == 1 and dtype.is_floating_point else source))


def test_bytes_cross_as_bytes_and_are_never_unpickled():
    payload = pickle.dumps(Payload())
    back = wire.roundtrip(payload)
    assert type(back) is bytes and back == payload
    with pytest.raises(Mismatch, match="wrong type"):
        check(back, TupleOf(INT), "f")


def test_digests_decode_only_from_recordings():
    from grader.harness.digest import EXACT_SECRET, Digest, hide

    text = wire.encode(hide(6.0, EXACT_SECRET))
    with pytest.raises(wire.WireError):
        wire.decode(text)  # what an implementation sends: a digest is not a value it may claim
    digest = wire.decode(text, digests=True)
    assert isinstance(digest, Digest) and digest.matches(6.0) and digest.matches(6) and not digest.matches(6.5)


def test_nan_and_infinities_survive_and_are_marked():
    back = wire.roundtrip((math.nan, math.inf, -math.inf))
    assert math.isnan(back[0]) and back[1:] == (math.inf, -math.inf)
    assert "NaN" not in wire.encode(math.nan)


def test_look_alikes_become_plain_values():
    assert wire.roundtrip(torch.Size([2, 3])) == (2, 3) and type(wire.roundtrip(torch.Size([2]))) is tuple
    assert type(wire.roundtrip(np.int64(5))) is int and type(wire.roundtrip(np.float32(0.5))) is float
    assert type(wire.roundtrip(np.bool_(True))) is bool
    p = torch.nn.Parameter(torch.ones(2))
    assert type(wire.roundtrip(p)) is torch.Tensor and wire.roundtrip(p).wire_requires_grad


def test_a_str_or_int_enum_member_is_its_own_text_or_number_whatever_it_says():
    """``special=Special.IEEE`` of a StrEnum (a str, == "ieee") cost two points as "an object of type Special":
    it crosses as its text, read through str's own slot, never its class's __str__, __eq__ or value."""
    import enum

    class Special(enum.StrEnum):
        IEEE = "ieee"

        def __str__(self):
            return "none"

        def __eq__(self, other):
            return True

        __hash__ = str.__hash__

    class Bits(enum.IntEnum):
        E5M2 = 5

        def __int__(self):
            return 7

    assert type(wire.roundtrip(Special.IEEE)) is str and wire.roundtrip(Special.IEEE) == "ieee"
    assert type(wire.roundtrip(Bits.E5M2)) is int and wire.roundtrip(Bits.E5M2) == 5
    assert wire.roundtrip({"special": (Special.IEEE,)}) == {"special": ("ieee",)}

    class Plain(str):  # any other str subclass stays what it was: an object
        pass

    assert type(wire.roundtrip(Plain("ieee"))) is not str


def test_dataclasses_and_named_tuples_become_records():
    @dataclasses.dataclass
    class Ledger:
        parameters: int
        total: float

    class Pair(NamedTuple):
        forward: int
        backward: int

    record = wire.roundtrip(Ledger(3, 1.5))
    assert isinstance(record, wire.Record) and record.name == "Ledger" and record.get("parameters") == 3
    pair = wire.roundtrip(Pair(1, 2))
    assert pair.kind == "namedtuple" and pair.fields == (("forward", 1), ("backward", 2))


class Liar:
    def __eq__(self, other):
        return True


class LyingTuple(tuple):
    def __eq__(self, other):
        return True


class LyingTensor(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return True


class Payload:
    def __reduce__(self):
        return (print, ("unpickled!",))


@pytest.mark.parametrize("value", [Liar(), torch.ones(2).as_subclass(LyingTensor), Payload(), lambda: 1, object()],
                         ids=["eq", "tensor-subclass", "reduce", "lambda", "object"])
def test_anything_else_crosses_as_an_opaque_name_and_fails_type_checks(value):
    back = wire.roundtrip(value)
    assert isinstance(back, wire.Opaque)
    with pytest.raises(Mismatch, match="wrong type"):
        check(back, TupleOf(INT), "f")
    with pytest.raises(Mismatch, match="wrong type"):
        check(back, FLOAT, "f")


@given(st.binary(max_size=200) | st.text(max_size=200))
def test_the_decoder_refuses_garbage_with_a_wire_error_only(raw):
    try:
        wire.decode(raw)
    except wire.WireError:
        pass


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["$t", "$d", "$f", "$tensor", "$dtype", "$nt", "$dc", "$opaque", "shape", "data",
                         "at", "fields", "x"]), inner, max_size=3),
    max_leaves=12,
)


@given(json_values)
def test_hostile_json_structures_decode_or_raise_a_wire_error(obj):
    try:
        value = wire.decode(json.dumps(obj))
    except wire.WireError:
        return
    assert not isinstance(value, torch.Tensor) or type(value) is torch.Tensor


@given(json_values, st.binary(max_size=64))
def test_hostile_packed_messages_unpack_or_raise_a_wire_error(obj, tail):
    text = json.dumps(obj).encode()
    try:
        value = wire.unpack(len(text).to_bytes(4, "big") + text + tail)
    except wire.WireError:
        return
    assert not isinstance(value, torch.Tensor) or type(value) is torch.Tensor


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.int64, torch.bool, torch.complex64], ids=str)
def test_large_tensors_travel_raw_after_the_text_and_round_trip_bit_for_bit(dtype):
    big = (torch.randn(64, 33) * 10).to(dtype)  # at least SIDECAR_MIN bytes: sent raw
    value = {"weights": (big.t(), torch.ones(2)), "again": big, "name": "x"}
    message = wire.pack(value)
    (length,) = wire._LENGTH.unpack_from(message)
    text = message[4:4 + length].decode()
    assert big.numel() * dtype.itemsize >= wire.SIDECAR_MIN and '"at"' in text and '"data"' in text
    assert len(message) < len(wire.encode(value)), "raw bytes are smaller than their base64"
    back = wire.unpack(message)
    assert type(back["again"]) is torch.Tensor and back["again"].dtype == dtype
    assert torch.equal(back["again"], big) and torch.equal(back["weights"][0], big.t())
    assert torch.equal(back["weights"][1], torch.ones(2)) and back["name"] == "x"
    assert wire.encode(back) == wire.encode(value), "a packed tensor is the same value as an encoded one"
    back["again"].zero_()  # its own memory, not the message's
    assert torch.equal(wire.unpack(message)["again"], big)


def test_a_packed_message_that_lies_about_its_bytes_is_refused():
    message = wire.pack(torch.ones(1024))
    (length,) = wire._LENGTH.unpack_from(message)
    header = json.loads(message[4:4 + length])

    def repacked(**changes) -> bytes:
        text = json.dumps({**header, **changes}).encode()
        return len(text).to_bytes(4, "big") + text + message[4 + length:]

    for lie in ([0, 4095], [1, 4096], [0, 4097], [-1, 4096], [0.0, 4096], [0], "0,4096"):
        with pytest.raises(wire.WireError):
            wire.unpack(repacked(at=lie))
    with pytest.raises(wire.WireError):
        wire.unpack(repacked(shape=[1025]))
    for broken in (b"", b"\0\0", (10**6).to_bytes(4, "big") + b"{}", (2).to_bytes(4, "big") + b"\xff\xfe"):
        with pytest.raises(wire.WireError):
            wire.unpack(broken)
    with pytest.raises(wire.WireError, match="outside a packed message"):
        wire.decode(message[4:4 + length].decode())  # raw bytes only come with a packed message


def _packed(header: object, tail: bytes = b"") -> bytes:
    text = json.dumps(header).encode()
    return len(text).to_bytes(4, "big") + text + tail


def test_each_raw_byte_is_read_once_so_a_message_cannot_grow_when_read():
    """A thousand tensors on the same 4 KB would be 4 MB read out of 4 KB sent (and the trusted side
    reads answers outside every limit of the worker): the tail is handed out in order, once."""
    one = {"$tensor": "float32", "shape": [1024], "device": "cpu", "requires_grad": False, "at": [0, 4096]}
    with pytest.raises(wire.WireError, match="already read"):
        wire.unpack(_packed([one] * 1000, bytes(4096)))
    second = {**one, "at": [4096, 4096]}
    with pytest.raises(wire.WireError, match="out of order"):
        wire.unpack(_packed([second, one], bytes(8192)))
    assert [t.shape for t in wire.unpack(_packed([one, second], bytes(8192)))] == [(1024,), (1024,)]


def test_an_answer_is_read_within_bounds():
    """What an implementation sends is read with a bounded text and a bounded count of containers;
    an honest answer is far inside both, its large tensors raw after the text."""
    honest = {"weights": {f"layers.{i}.weight": torch.randn(256, 256) for i in range(8)}, "losses": [0.5] * 500}
    back = wire.unpack(wire.pack(honest), answer=True)
    assert torch.equal(back["weights"]["layers.3.weight"], honest["weights"]["layers.3.weight"])
    nested = [[] for _ in range(wire.ANSWER_CONTAINERS)]
    assert len(wire.unpack(wire.pack(nested))) == wire.ANSWER_CONTAINERS  # not an answer: unbounded
    with pytest.raises(wire.WireError, match="lists and dicts"):
        wire.unpack(wire.pack(nested), answer=True)
    text = "x" * (wire.ANSWER_TEXT_BYTES + 1)
    assert wire.unpack(wire.pack(text)) == text
    with pytest.raises(wire.WireError, match="bytes of text"):
        wire.unpack(wire.pack(text), answer=True)


def test_an_answer_cannot_make_a_dict_slow_to_build():
    """Keys that all hash alike make a dict of n of them cost n**2 / 2 comparisons to build: 34,000 ints
    that are multiples of 2**61 - 1, under a megabyte of text, held the grading process 12 s. An answer's
    keys are strings, dtypes and ints too small to collide, and each pair counts against its budget."""
    modulus = 2**61 - 1
    colliding = {"$d": [[modulus * (i + 1), i] for i in range(4)]}
    with pytest.raises(wire.WireError, match="dict key"):
        wire.unpack(_packed(colliding), answer=True)
    with pytest.raises(wire.WireError, match="dict key"):  # a tuple's hash is as easy to collide
        wire.unpack(_packed({"$d": [[{"$t": [1, 2]}, 0]]}), answer=True)
    assert wire.unpack(_packed(colliding)) == {modulus * (i + 1): i for i in range(4)}  # the trusted side's own
    pairs = {"$d": [[i, 0] for i in range(wire.ANSWER_CONTAINERS)]}
    with pytest.raises(wire.WireError, match="lists and dicts"):
        wire.unpack(_packed(pairs), answer=True)
    honest = {0: {"step": torch.tensor(3.0)}, "param_groups": [{"lr": 0.1, "params": [0]}], torch.float32: 1.0,
              modulus - 1: -1, -(modulus - 1): 1}
    assert wire.unpack(wire.pack(honest), answer=True).keys() == honest.keys()


def test_a_tensor_whose_bytes_lie_about_its_shape_is_refused():
    good = json.loads(wire.encode(torch.ones(4)))
    good["shape"] = [5]
    with pytest.raises(wire.WireError):
        wire.decode(json.dumps(good))
    good["shape"] = [4]
    good["$tensor"] = "object"
    with pytest.raises(wire.WireError):
        wire.decode(json.dumps(good))


def test_oversized_messages_are_refused():
    with pytest.raises(wire.WireError):
        wire.decode(b"[" * (wire.MAX_BYTES + 1))


def test_decoding_then_encoding_again_changes_nothing():
    """Memoised oracle answers are decoded values encoded again: that must be the identity."""
    @dataclasses.dataclass
    class Limits:
        max: float

    class Pair(NamedTuple):
        a: int

    value = {"r": Limits(1.5), "p": Pair(2), "o": object(), "t": torch.ones(2, requires_grad=True)}
    once = wire.roundtrip(value)
    twice = wire.roundtrip(once)
    assert wire.encode(once) == wire.encode(twice)
    assert twice["r"] == once["r"] and twice["p"].kind == "namedtuple" and twice["o"] == once["o"]
    assert twice["t"].wire_requires_grad


def test_tensors_with_odd_strides_on_size_one_dims_encode():
    batch = torch.arange(12.0).reshape(1, 12)
    column = batch[:, -1]  # shape (1,), stride (12,): "contiguous" to torch, not to .view
    assert column.stride() == (12,)
    assert torch.equal(wire.roundtrip(column), column)
    assert torch.equal(wire.roundtrip(torch.arange(6.0).reshape(2, 3).t()), torch.arange(6.0).reshape(2, 3).t())


def _views(base: torch.Tensor) -> list[torch.Tensor]:
    return [base, base.transpose(0, 2), base[:, ::2], base[1:2], base[..., 0].expand(4, 5, 7), base[2, 3, 1],
            base[:, :0], torch.nn.Parameter(base.clone(), requires_grad=base.is_floating_point())]


@pytest.mark.parametrize("dtype", list(wire.TENSOR_DTYPES.values()), ids=str)
def test_every_layout_crosses_as_its_row_major_bytes(dtype):
    """Bytes are read through numpy where it has the dtype and by a torch copy where it has not
    (bfloat16, float8): either way a view's bytes are its values in row-major order."""
    base = (torch.randn(5, 7, 3) * 50).to(dtype)
    for view in _views(base):
        flat = view.detach().reshape(-1).contiguous()  # torch's own row-major order
        expected = bytes(flat.view(torch.uint8).tolist())
        encoded = wire._encode_tensor(view)
        got = base64.b64decode(encoded["data"])
        assert got == expected, (dtype, tuple(view.shape), view.stride())
        assert encoded["shape"] == list(view.shape) and encoded["$tensor"] == str(dtype).removeprefix("torch.")


def test_conjugate_and_negative_views_cross_as_their_values():
    z = torch.tensor([1 + 2j, 3 - 4j], dtype=torch.complex64)
    assert z.conj().is_conj() and z.conj().imag.is_neg()
    assert torch.equal(wire.roundtrip(z.conj()), torch.tensor([1 - 2j, 3 + 4j]))
    assert torch.equal(wire.roundtrip(z.conj().imag), torch.tensor([-2.0, 4.0]))


# --------------------------------------------------------------------------- remembered encodings (trusted side)
@pytest.fixture
def remembering(monkeypatch):
    monkeypatch.setattr(wire, "REMEMBER_ENCODINGS", True)


def test_off_by_default_where_student_code_may_run():
    assert wire.REMEMBER_ENCODINGS is False


def test_a_remembered_encoding_follows_every_change_to_the_tensor(remembering):
    t = wire.decode(wire.encode(torch.arange(6.0).reshape(2, 3)))
    assert wire.decode(wire.encode(t)).tolist() == [[0, 1, 2], [3, 4, 5]]
    t.add_(1)  # in place
    assert wire.decode(wire.encode(t)).tolist() == [[1, 2, 3], [4, 5, 6]]
    t[0].mul_(0)  # through a view: the version counter is shared
    assert wire.decode(wire.encode(t)).tolist() == [[0, 0, 0], [4, 5, 6]]
    fresh = torch.zeros(2)
    assert wire.decode(wire.encode(fresh)).wire_requires_grad is False
    fresh.requires_grad_(True)
    assert wire.decode(wire.encode(fresh)).wire_requires_grad is True
    u = t.detach().reshape(3, 2)  # another tensor over the same storage has its own shape
    assert wire.decode(wire.encode(u)).shape == (3, 2)
    assert wire.canonical_key(t) == wire.canonical_key(wire.decode(wire.encode(t)))


@pytest.mark.parametrize("value, words", [
    (torch.ones(()), "wrong shape: returned a tensor of shape (); expected shape (1,)"),
    (torch.ones(1, dtype=torch.float64), "wrong type: returned a float64 tensor; expected a float32 tensor"),
    (torch.full((1,), math.nan), "not finite: returned a tensor with NaN"),
    ([torch.ones(2)], "wrong shape: item 0: returned a tensor of shape (2,)"),
])
def test_a_message_names_what_is_wrong_with_an_answer(value, words):
    """A tensor of the right type but a shape off by a squeeze is a wrong shape, not a wrong type."""
    schema = Tensor(torch.float32, (1,))
    with pytest.raises(Mismatch) as raised:
        check(value, ListOf(schema) if isinstance(value, list) else schema, "model.Cruncher")
    assert words in str(raised.value.describe()), raised.value.describe()


def test_a_named_tuple_where_a_tuple_is_due_is_read_as_the_tuple():
    """``return Grads(gx, gw)`` (a typing.NamedTuple) is the pair the spec asks for: it unpacks, indexes and
    compares as one. Its fields crossed the wire as plain data; a dataclass is no tuple."""
    from grader.harness.schema import Optional, Tuple

    class Grads(NamedTuple):
        grad_x: int
        grad_w: int

    class Slotted(Grads):  # the idiom for methods on a named tuple
        __slots__ = ()

        def __iter__(self):  # a subclass's say is not read: the items it holds are
            return iter((9, 9))

    for made in (Grads(1, 2), Slotted(1, 2)):
        got = wire.decode(wire.encode(made))
        assert isinstance(got, wire.Record)
        for schema in (Tuple(INT, INT), TupleOf(INT), Optional(Tuple(INT, INT))):
            assert schema.plain(got) == (1, 2) and schema.problem(schema.plain(got)) is None
    record = wire.Record("dataclass", "Grads", (("grad_x", 1), ("grad_w", 2)))
    assert Tuple(INT, INT).plain(record) is record and Tuple(INT, INT).problem(record)


def test_a_class_of_tuple_s_own_is_the_tuple_it_holds():
    """``class Grads(tuple)`` with properties (a tuple, as the spec's pair is) crosses as the plain tuple of the
    items it holds, read as tuple holds them: its ``__eq__`` and ``__iter__`` stay behind. A list's the same."""
    from grader.harness.schema import Tuple

    class Grads(tuple):
        @property
        def grad_x(self):
            return self[0]

        def __iter__(self):
            return iter((9, 9))

    class Losses(list):
        def __iter__(self):
            return iter(())

    for made in (Grads((1, 2)), LyingTuple((1, 2))):
        got = wire.roundtrip(made)
        assert type(got) is tuple and got == (1, 2) and Tuple(INT, INT).problem(got) is None
    assert wire.roundtrip(Losses([0.5, 0.25])) == [0.5, 0.25] and type(wire.roundtrip(Losses([1.0]))) is list


def test_a_class_of_dict_s_own_is_the_dict_it_holds():
    """A datasheet table built as a ``defaultdict`` (or an ``OrderedDict``) is a dict, as the spec's type says: it
    crosses as the plain dict it holds, read as dict holds it (an ``items`` of its own stays behind); it read as
    an opaque object, refused as "should be a dict", and cost two points (red team)."""
    import collections

    class Lying(dict):
        def items(self):
            return iter([("A100", 0.0)])

    table = collections.defaultdict(dict, {"A100": collections.OrderedDict({torch.float32: 19.5e12})})
    for made, plain in ((table, {"A100": {torch.float32: 19.5e12}}), (Lying({"A100": 1.5}), {"A100": 1.5})):
        got = wire.roundtrip(made)
        assert type(got) is dict and got == plain and all(type(v) is dict for v in got.values() if isinstance(v, dict))


UNPRINTABLE_NAME = "odd\ud800\x1b]0;title\x07\x1b[2J\u202eevil"


def test_names_a_class_chose_arrive_printable():
    """A class may set its ``__qualname__`` (and a record its field names) to any text: terminal controls, a
    lone surrogate, a right-to-left override. Every message quotes such names, and the staff's report shows
    them, so they are made printable where they are decoded."""
    odd = type("Odd", (), {"__qualname__": UNPRINTABLE_NAME})()
    opaque = wire.roundtrip(odd)
    record = wire._dec({"$dc": UNPRINTABLE_NAME, "fields": [[UNPRINTABLE_NAME, 1]]}, 0)
    for text in (opaque.type_name, record.name, record.fields[0][0]):
        assert not any(c in text for c in "\x1b\x07\u202e\ud800"), text
        assert "odd" in text and "evil" in text
    with pytest.raises(Mismatch) as raised:
        check(opaque, FLOAT, "f")
    assert "\x1b" not in str(raised.value.describe())


def test_a_wrong_type_shows_what_came_back_once_and_no_expected_line():
    """The problem already says what was due; the value returned is the clue a student needs ("1.5" where
    a count was due says more than "a float")."""
    with pytest.raises(Mismatch) as raised:
        check("12 bytes", INT, "memory.bytes_of")
    text = raised.value.describe()
    assert "wrong type: returned a string; expected an int" in text, text
    assert "  returned: '12 bytes'" in text and "expected: " not in text.split("\n", 1)[1], text


def test_an_int_beyond_any_float_is_no_float_and_no_harness_error():
    """Where a float is due an int counts as its exact value, but one beyond float's range has no float
    near it: a wrong type, not a comparison that overflows in the grading process."""
    from grader.harness.compare import Compare, differs

    assert FLOAT.problem(10**308) is None
    with pytest.raises(Mismatch, match="beyond any float"):
        check(10**400, FLOAT, "f")
    assert differs(10**400, 1.0, Compare(rel=1e-5))


def test_a_hidden_number_matches_as_equals_compares_it():
    """A fingerprint stands in for ==: an int and its float, and +0.0 and -0.0 (nvfp4_values' docstring:
    the same value), match; another value does not, exactly or within a tolerance."""
    from grader.harness.digest import EXACT_SECRET, Secret, hide

    exact = hide([0.0, -6.0, 3], EXACT_SECRET)
    assert exact[0].matches(-0.0) and exact[0].matches(0) and exact[1].matches(-6) and exact[2].matches(3.0)
    assert not exact[0].matches(0.5) and not exact[1].matches(6.0)
    close = hide([-0.0, 2.0], Secret(rel=1e-3))
    assert close[0].matches(0.0) and close[0].matches(-0.0) and close[1].matches(2.0005)
    assert not close[1].matches(2.01)


def test_an_int_too_long_for_json_s_text_is_an_opaque_int_not_a_crash():
    """An int past the digits Python reads back from text (10**5000) would stop the encoder: it crosses as
    an opaque int that says why, and fails the type check with that reason (not "raised ValueError")."""
    sent = wire.roundtrip(10**5000, answer=True)
    assert isinstance(sent, wire.Opaque) and "too long to send back" in sent.why
    with pytest.raises(Mismatch, match="too long to send back"):
        check(sent, INT, "flops.matmul_flops")
    assert wire.roundtrip(2**600, answer=True) == 2**600  # the largest real counts are far shorter

