"""Staff check: the Part 9 reference against numpy, torch and an independent training loop.

``independent_steps`` below is the lecture's loop written separately (staff-only:
the handout ships no training loop); the reference's ``train`` must follow it bit
for bit, and a model and AdamW restored from the reference's checkpoint must
train on exactly as the saved ones would.
"""

from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings

from grader.harness.impl import Implementation
from grader.harness.probes import part09 as P
from reference import training as R
from tests import test_part09_training as T
from tests.strategies import part09 as S

REFERENCE = Implementation("reference", Path(__file__).resolve().parent.parent)


def independent_steps(model, optimizer, data, rng, num_steps, batch_size):
    """The lecture's training loop, written independently of the reference."""
    for _ in range(num_steps):
        rows = rng.integers(0, len(data), size=batch_size)
        F.mse_loss(model(torch.from_numpy(data[rows, :-1])), torch.from_numpy(data[rows, -1])).backward()
        optimizer.step()
        optimizer.zero_grad()


def same(a, b):
    """Bit-for-bit equality of nested dicts and lists of tensors and numbers."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        return a.dtype == b.dtype and a.shape == b.shape and torch.equal(a, b)
    return type(a) is type(b) and a == b


def test_open_dataset_is_a_read_only_memmap(tmp_path):
    data = np.random.default_rng(0).standard_normal((7, 3)).astype(np.float32)
    np.save(tmp_path / "data.npy", data)
    opened = R.open_dataset(tmp_path / "data.npy")
    assert type(opened) is np.memmap and opened.mode == "r" and not opened.flags.writeable
    assert np.array_equal(opened, data)


@given(S.batch_cases)
def test_get_batch_is_one_integers_draw(case):
    rows, dim, batch_size, seed, _ = case
    data = P.make_data(rows, dim, seed)
    rng, twin = np.random.default_rng(seed), np.random.default_rng(seed)
    x, y = R.get_batch(data, batch_size, rng)
    picked = data[twin.integers(0, rows, size=batch_size)]
    assert x.dtype == y.dtype == torch.float32 and x.shape == (batch_size, dim) and y.shape == (batch_size,)
    assert np.array_equal(x.numpy(), picked[:, :-1]) and np.array_equal(y.numpy(), picked[:, -1])
    assert rng.integers(0, 2**62) == twin.integers(0, 2**62)


def test_a_batch_returned_as_a_named_tuple_is_the_pair():
    """``return Batch(x, y)`` (a NamedTuple) is the pair get_batch returns, as every tuple answer is: the probe
    reports where its fields lie, whatever its class makes of iteration, and the test reads it as (x, y)."""
    from typing import NamedTuple

    from grader.harness import wire
    from grader.harness.ask import Answers

    class Batch(NamedTuple):
        x: torch.Tensor
        y: torch.Tensor

        def __iter__(self):  # what iterating it yields is its class's say: its fields are what it holds
            return iter(())

    class Functions:
        def function(self, name):
            return lambda data, batch_size, rng, device="cpu": Batch(*R.get_batch(data, batch_size, rng, device))

    assert P.get_batch.fn(Functions(), 8, 3, 2, 0, False, "meta").batch == ("meta", "meta")
    plain = P.get_batch.fn(Functions(), 8, 3, 2, 0, False)
    got = wire.roundtrip(plain)
    expected = wire.roundtrip(P.get_batch.fn(REFERENCE, 8, 3, 2, 0, False))
    batch = Answers("training.get_batch", "", got, expected).where("batch")
    assert type(batch.got) is tuple and len(batch.got) == 2
    batch.where(0).same()
    batch.where(1).same()


def test_a_batch_left_on_the_cpu_is_not_on_a_device_its_class_is_named_after():
    """A tensor subclass's device may be a property of its own, so only a plain tensor's is read; any other
    object is reported by its class, and a class may be called ``meta``."""
    meta = type("meta", (torch.Tensor,), {})

    class Functions:
        def function(self, name):
            return lambda data, batch_size, rng, device="cpu": tuple(
                t.as_subclass(meta) for t in R.get_batch(data, batch_size, rng))

    assert P.get_batch.fn(Functions(), 8, 3, 2, 0, False, "meta").batch == ("a meta", "a meta")


@settings(max_examples=20)
@given(S.train_cases)
def test_train_follows_the_harness_loop(case):
    dim, num_layers, rows, batch_size, num_steps, seed = case
    model, optimizer, data, rng = P.make_run(dim, num_layers, rows, seed)
    twin, twin_optimizer, _, twin_rng = P.make_run(dim, num_layers, rows, seed)
    first = twin_rng.bit_generator.state
    losses = R.train(model, optimizer, data, num_steps, batch_size, rng)
    independent_steps(twin, twin_optimizer, data, twin_rng, num_steps, batch_size)
    assert type(losses) is list and len(losses) == num_steps and all(type(v) is float for v in losses)
    assert same(P.parameters(model), P.parameters(twin))
    assert all(p.grad is None for p in model.parameters())
    # the first loss is the fresh model's on the first batch
    fresh, _, _, _ = P.make_run(dim, num_layers, rows, seed)
    replay = np.random.default_rng()
    replay.bit_generator.state = first
    picked = data[replay.integers(0, rows, size=batch_size)]
    loss = F.mse_loss(fresh(torch.from_numpy(picked[:, :-1])), torch.from_numpy(picked[:, -1]))
    assert losses[0] == pytest.approx(loss.item(), rel=1e-6)  # the same batch, up to the kernel's rounding


@settings(max_examples=20)
@given(S.checkpoint_cases)
def test_a_restored_checkpoint_trains_on_as_the_saved_one(tmp_path_factory, case):
    """What the graded test compares (the restored state, bit for bit) is what matters: a model and
    AdamW restored from the reference's file train on exactly as the ones that were saved."""
    dim, num_layers, seed, steps = case
    blob = P.checkpoint_file.fn(REFERENCE, *case)
    restored = P.restore_checkpoint.fn(REFERENCE, dim, num_layers, seed, blob)
    model, optimizer = P.stepped_run(dim, num_layers, seed, steps)
    assert restored.step == steps
    assert same(restored.params, P.parameters(model)) and same(restored.optimizer, P.dense_state(optimizer.state_dict()))
    folder = tmp_path_factory.mktemp("resume")
    R.save_checkpoint(folder / "c.pt", model, optimizer, steps)
    fresh, fresh_optimizer, data, _ = P.make_run(dim, num_layers, 16, seed + 1)
    R.load_checkpoint(folder / "c.pt", fresh, fresh_optimizer)
    independent_steps(model, optimizer, data, np.random.default_rng(seed), 3, 4)
    independent_steps(fresh, fresh_optimizer, data, np.random.default_rng(seed), 3, 4)
    assert same(P.parameters(fresh), P.parameters(model))


def test_checkpoint_is_a_plain_weights_only_file(tmp_path):
    model, optimizer = P.stepped_run(3, 1, 0, 2)
    R.save_checkpoint(tmp_path / "c.pt", model, optimizer, 2)
    checkpoint = torch.load(tmp_path / "c.pt", weights_only=True)
    assert set(checkpoint) == {"model", "optimizer", "step"} and checkpoint["step"] == 2


def test_the_tests_read_a_checkpoint_only_as_torch_save_writes_it(tmp_path):
    """The grading process reads the student's file itself: the reference's reads; one whose entries are
    compressed (torch.load would inflate 5 KB into 4 MB, or 64 MB into 64 GB), or that is a legacy file
    with a zip behind it (read the legacy way, sizes from the pickle), is refused; a knot of
    lists, one list held twice at each of 40 levels, is opened once per list, not 2**40 times."""
    import io
    import zipfile

    model, optimizer = P.stepped_run(3, 1, 0, 2)
    R.save_checkpoint(tmp_path / "c.pt", model, optimizer, 2)
    blob = (tmp_path / "c.pt").read_bytes()
    assert len(T._tensors(T.read_checkpoint(blob))) == len(T._tensors(torch.load(io.BytesIO(blob), weights_only=True)))
    saved, packed = io.BytesIO(), io.BytesIO()
    torch.save({"w": torch.zeros(1000, 1000)}, saved)
    with zipfile.ZipFile(saved) as plain, zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as deflated:
        for entry in plain.infolist():
            deflated.writestr(entry.filename, plain.read(entry.filename))
    assert torch.load(io.BytesIO(packed.getvalue()), weights_only=True)["w"].numel() == 10**6  # torch reads it
    with pytest.raises(ValueError, match="compressed"):
        T.read_checkpoint(packed.getvalue())
    legacy, tail = io.BytesIO(), io.BytesIO()
    torch.save({"w": torch.zeros(4)}, legacy, _use_new_zipfile_serialization=False)
    with zipfile.ZipFile(tail, "w") as stored:
        stored.writestr("a", "x")
    with pytest.raises(ValueError, match="not the zip file"):  # torch.load would read the legacy format in front
        T.read_checkpoint(legacy.getvalue() + tail.getvalue())
    with pytest.raises(ValueError, match="legacy format"):  # said as such, not as a file torch cannot read
        T.read_checkpoint(legacy.getvalue())
    newer = io.BytesIO()  # weights_only cannot read protocol 4: torch's page of advice becomes one line
    torch.save({"w": torch.zeros(4)}, newer, pickle_protocol=4)
    with pytest.raises(ValueError, match=r"refuses it \(Unsupported operand 149\); it is pickled with protocol 4"):
        T.read_checkpoint(newer.getvalue())
    knot = [torch.ones(1)]
    for _ in range(40):
        knot = [knot, knot]
    assert len(T._tensors({"model": knot})) == 1


def test_a_checkpoint_names_only_what_torch_save_writes():
    """weights_only lets a pickle call bytearray: eight bytes of pickle asked the grading process for 2 GiB,
    as often as the file liked. A file naming anything torch.save does not write is refused before
    torch.load; what a student may honestly save (parameters, dtypes, devices, the RNG state, sets) reads."""
    import io
    import pickle
    import zipfile

    class Allocates:
        def __reduce__(self):
            return bytearray, (2**20,)

    def with_pickle(data: bytes) -> bytes:
        saved, forged = io.BytesIO(), io.BytesIO()
        torch.save({"w": torch.zeros(2)}, saved)
        with zipfile.ZipFile(saved) as plain, zipfile.ZipFile(forged, "w") as stored:
            for entry in plain.infolist():
                stored.writestr(entry.filename, data if entry.filename.endswith("/data.pkl") else plain.read(entry))
        return forged.getvalue()

    hostile = with_pickle(pickle.dumps({"x": [Allocates()] * 3}, protocol=2))
    assert type(torch.load(io.BytesIO(hostile), weights_only=True)["x"][0]) is bytearray  # torch would build it
    with pytest.raises(ValueError, match="bytearray"):
        T.read_checkpoint(hostile)
    # protocol 4 names a global from the two strings on the stack: followed, through the memo
    swapped = (b"\x80\x02\x8c\x05torchq\x00\x8c\x04Sizeq\x010\x8c\x08builtinsq\x00\x8c\tbytearrayq\x01"
               b"h\x00h\x01\x93J\x00\x00\x10\x00\x85R.")
    assert type(pickle.loads(swapped)) is bytearray
    with pytest.raises(ValueError, match="global"):
        T.read_checkpoint(with_pickle(swapped))
    model, optimizer = P.stepped_run(3, 1, 0, 2)
    honest = io.BytesIO()
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": 2,
                "weight": next(model.parameters()), "rng": torch.get_rng_state(),
                "dtype": torch.bfloat16, "device": torch.device("cpu"), "shape": torch.Size([2]), "seen": {1, 2},
                "half": torch.ones(2, dtype=torch.float16), "f8": torch.zeros(2, dtype=torch.float8_e4m3fn),
                "note": b"bytes \x00\xff"}, honest)
    assert len(T._tensors(T.read_checkpoint(honest.getvalue()))) >= 8
    # protocol 2 writes bytes as _codecs.encode(text, "latin1"); encode of its own result in "hex", 30 times
    # over, asked for a gigabyte from 1.2 KB
    def doubling(levels: int) -> bytes:
        return (b"\x80\x02c_codecs\nencode\nq\x00" + b"h\x00" * levels
                + b"X\x01\x00\x00\x00aX\x06\x00\x00\x00latin1\x86R" + b"X\x03\x00\x00\x00hex\x86R" * levels + b".")

    assert len(pickle.loads(doubling(3))) == 8
    with pytest.raises(ValueError, match="_codecs.encode"):
        T.read_checkpoint(with_pickle(doubling(30)))
    decoys = io.BytesIO()  # a minute of reading for the grading process, before the cap on its steps
    torch.save({"model": model.state_dict(), "decoys": [torch.zeros(3)] * 60_000}, decoys)
    with pytest.raises(ValueError, match="steps"):
        T.read_checkpoint(decoys.getvalue())
    assert len(T._tensors({"decoys": [torch.zeros(3)] * 1000})) == 1  # one tensor, held many times: read once


def test_docstring_examples(tmp_path):
    data = np.arange(12, dtype=np.float32).reshape(4, 3)
    x, y = R.get_batch(data, 2, np.random.default_rng(0))
    assert torch.equal(x, torch.tensor([[9.0, 10.0], [6.0, 7.0]])) and torch.equal(y, torch.tensor([11.0, 8.0]))
    np.save(tmp_path / "data.npy", np.zeros((1000, 5), dtype=np.float32))
    opened = R.open_dataset(str(tmp_path / "data.npy"))
    assert isinstance(opened, np.memmap) and opened.shape == (1000, 5) and not opened.flags.writeable
    model, optimizer, data, rng = P.make_run(2, 1, 10, 0)
    losses = R.train(model, optimizer, data, 3, 8, rng)
    assert len(losses) == 3 and all(type(v) is float for v in losses)


def _run():
    return P.make_run(2, 1, 10, 0)


@pytest.mark.parametrize("call", [
    lambda: R.get_batch(np.zeros((4, 3), np.float32), 0, np.random.default_rng(0)),
    lambda: R.get_batch(np.zeros((0, 3), np.float32), 2, np.random.default_rng(0)),
    lambda: R.get_batch(np.zeros((4, 1), np.float32), 2, np.random.default_rng(0)),
    lambda: R.get_batch(np.zeros(4, np.float32), 2, np.random.default_rng(0)),
    lambda: R.train(*_run()[:3], -1, 2, np.random.default_rng(0)),
    lambda: R.train(*_run()[:3], 2, 0, np.random.default_rng(0)),
    lambda: R.save_checkpoint("unused.pt", *_run()[:2], -1),
], ids=["batch_size 0", "no rows", "no inputs", "1-D data", "num_steps negative", "train batch_size 0",
        "step negative"])
def test_bad_arguments_raise_value_error(call):
    with pytest.raises(ValueError, match=r"\w"):
        call()
