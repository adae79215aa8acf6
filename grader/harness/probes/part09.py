"""Probes for Part 9: datasets on disk, batches, the training loop, checkpoints.

Part 9 never uses the implementation's ``Cruncher`` or ``Linear`` (Part 8): the
model is the harness's own ``DeepLinear``, the optimizer torch's ``AdamW``, and
data and generators come from the probe's arguments, so both sides of a test
run the very same scenario. Files go to a temporary folder, emptied before each call and after.
Tensors the implementation returns are sent as plain row-major copies.

A checkpoint is written by one process (``checkpoint_file``) and read back by
another that never saw what was saved (``restore_checkpoint``, ``process=
"separate"``): only the file carries the state across.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import io
import os
import shutil
import tempfile
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import torch
from torch import nn

from grader.harness.impl import Implementation
from grader.harness.probe import Report, judge, probe

LEARNING_RATE = 1e-2
TRAIN_TIMEOUT = 20.0
DATASET = "dataset.npy"  # the file name open_dataset is given: the door looks for its mappings


class DeepLinear(nn.Module):
    """The harness's model: ``num_layers`` dim×dim linear layers (with bias), then dim×1, then a shift."""

    def __init__(self, dim: int, num_layers: int) -> None:
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(dim, dim) for _ in range(num_layers))
        self.final = nn.Linear(dim, 1)
        # a buffer, drawn like the weights: part of the model's state that is no parameter, so a
        # checkpoint of named_parameters() alone (loaded with strict=False) does not restore the model
        self.register_buffer("shift", torch.randn(()))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.layers:
            x = layer(x)  # (batch, dim)
        return self.final(x).squeeze(-1) + self.shift  # (batch,)


def make_data(rows: int, dim: int, seed: int) -> np.ndarray:
    """(rows, dim + 1) float32: inputs, then a noisy linear target in the last column."""
    gen = np.random.default_rng(seed)
    x = gen.standard_normal((rows, dim))
    y = x @ gen.standard_normal(dim) + 0.1 * gen.standard_normal(rows)
    return np.concatenate([x, y[:, None]], axis=1).astype(np.float32)


# torch's optimizers a run may use, by name (AdamW unless a hidden test names another: each keeps
# other state, SGD a momentum buffer, RMSprop a square average, Adagrad a sum and a step count)
OPTIMIZERS = {
    "adamw": lambda params: torch.optim.AdamW(params, lr=LEARNING_RATE),
    "sgd_momentum": lambda params: torch.optim.SGD(params, lr=LEARNING_RATE, momentum=0.9),
    "sgd_nesterov": lambda params: torch.optim.SGD(params, lr=LEARNING_RATE, momentum=0.9, nesterov=True),
    "rmsprop": lambda params: torch.optim.RMSprop(params, lr=LEARNING_RATE),
    "adagrad": lambda params: torch.optim.Adagrad(params, lr=LEARNING_RATE),
}


def make_run(dim: int, num_layers: int, rows: int, seed: int, optimizer_name: str = "adamw", fitted: bool = False):
    """Model, optimizer (AdamW unless named), data and the batch generator of one scenario, all from ``seed``.
    ``fitted``: the data's targets are the model's own outputs (every loss about 0 from the first step)."""
    torch.default_generator.manual_seed(seed)
    model = DeepLinear(dim, num_layers)
    data = make_data(rows, dim, seed)
    if fitted:
        with torch.no_grad():
            data[:, -1] = model(torch.from_numpy(data[:, :-1])).numpy()
    return model, OPTIMIZERS[optimizer_name](model.parameters()), data, np.random.default_rng([seed, 1])


def parameters(model: nn.Module) -> dict[str, torch.Tensor]:
    """The model's state as its state_dict names it: parameters and buffers, copied."""
    return {name: t.detach().clone() for name, t in model.state_dict().items()}


def dense(value: Any) -> Any:
    """Tensors in ``value`` (or in a tuple or list of it) copied to plain row-major layout.

    What the implementation returns may be a view with any strides, which the wire
    need not carry; the copy keeps dtype, device, shape and values.
    """
    if type(value) in (tuple, list):
        return type(value)(dense(item) for item in value)
    if type(value) in (torch.Tensor, nn.Parameter):
        return value.detach().clone(memory_format=torch.contiguous_format)
    return value


class Scratch:
    """The process's temporary folder for the probes' files, emptied before each call that uses it and
    after (so that a memory map into a file in it stays where the door can see it after the call, and no
    call finds what an earlier one left). One folder, not a fresh one each call: a student's run made and
    removed over a hundred, and a directory's removal waits on the disk's journal (milliseconds each on a
    disk busy with other writes), where removing the files in it does not."""

    folder: str | None = None
    owner: int | None = None  # the pid that made it: a forked child makes its own, never its parent's
    kept: Any = None  # the last object open_dataset returned, alive until the next call

    @classmethod
    def fresh(cls) -> str:
        cls.clear()
        if cls.folder is None or cls.owner != os.getpid():
            cls.folder, cls.owner = tempfile.mkdtemp(prefix="probe-"), os.getpid()
            atexit.register(shutil.rmtree, cls.folder, True)
        return cls.folder

    @classmethod
    def clear(cls) -> None:
        cls.kept = None
        if cls.folder is not None and cls.owner == os.getpid() and not _emptied(cls.folder):
            shutil.rmtree(cls.folder, ignore_errors=True)  # what would not go: left, with its folder
            cls.folder = None


def _emptied(folder: str) -> bool:
    """Whether everything in ``folder`` (still a real folder, not a link) could be removed."""
    try:
        if os.path.islink(folder) or not os.path.isdir(folder):
            return False
        for entry in os.scandir(folder):
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
        return not os.listdir(folder)
    except OSError:
        return False


# --------------------------------------------------------------------------- data
@dataclass(frozen=True)
class Opened(Report):
    """What ``open_dataset`` returned for a saved array."""

    type: str  # its type, as its class names itself (a claim: the door watches the file's mappings)
    values: Any  # its values, copied (None if it is not an array)
    address: int | None  # where its data starts in the process's memory (None if it is not an array)
    nbytes: int | None  # how many bytes of data it has from there (None if it is not an array)
    inode: int  # the saved file's inode, taken before the call (a map of a copy is another file's)


# read through ndarray's own descriptors: a subclass may redefine the attributes, not these
_INTERFACE = np.ndarray.__dict__["__array_interface__"]
_NBYTES = np.ndarray.__dict__["nbytes"]


@probe(subject="training.open_dataset", batch=False)
def open_dataset(impl: Implementation, rows: int, cols: int, seed: int) -> Opened:
    """Save a (rows, cols) float32 array as ``dataset.npy`` and open it with the implementation.

    What it returned stays alive after the call, so that the door can see how the
    file is mapped into the process (read-only, writable, or not at all) and whether
    the returned array's bytes lie inside such a mapping.
    """
    data = np.random.default_rng(seed).standard_normal((rows, cols)).astype(np.float32)
    path = os.path.join(Scratch.fresh(), DATASET)
    np.save(path, data)
    return _opened(impl, path, lambda opened: opened)


def _opened(impl: Implementation, path: str, values: Callable[[np.ndarray], Any]) -> Opened:
    """``open_dataset(path)``, kept alive after the call; ``values`` picks what of the array is reported."""
    inode = os.stat(path).st_ino
    opened = impl.function("training.open_dataset")(path)
    Scratch.kept = opened
    name = f"{type(opened).__module__}.{type(opened).__qualname__}"
    if not isinstance(opened, np.ndarray):
        return Opened(name, None, None, None, inode)
    return Opened(name, torch.from_numpy(np.array(values(opened))), int(_INTERFACE.__get__(opened)["data"][0]),
                  int(_NBYTES.__get__(opened)), inode)


# a dataset too large to hold twice unseen: a copy of it raises the process's resident memory by its size,
# which the door sees from outside (where a probe's own report of an address could be forged)
LARGE_ROWS, LARGE_COLS = 1 << 17, 64  # 32 MiB of float32
_CHUNK_ROWS = 4096


def large_rows(start: int, stop: int, cols: int, seed: int) -> np.ndarray:
    """Rows ``start:stop`` of the large dataset: cheap to make a chunk at a time, different in every cell
    (each cell its own index plus ``seed``: whole numbers below 2**24, so float32 holds each exactly and
    no float64 pass is needed; this is paid twice per grading, by the implementation's side and the reference's)."""
    assert stop * cols + seed < 2**24
    return np.arange(start * cols + seed, stop * cols + seed, dtype=np.float32).reshape(stop - start, cols)


def _write_large(rows: int, cols: int, seed: int) -> str:
    """A (rows, cols) float32 array written as ``dataset.npy`` a chunk at a time (the harness holds none of
    it in memory): its path."""
    path = os.path.join(Scratch.fresh(), DATASET)
    with open(path, "wb") as handle:
        header = {"descr": np.lib.format.dtype_to_descr(np.dtype(np.float32)), "fortran_order": False,
                  "shape": (rows, cols)}
        np.lib.format.write_array_header_1_0(handle, header)
        for start in range(0, rows, _CHUNK_ROWS):
            large_rows(start, min(rows, start + _CHUNK_ROWS), cols, seed).tofile(handle)
    return path


@probe(subject="training.open_dataset", batch=False)
def open_large_dataset(impl: Implementation, rows: int, cols: int, seed: int) -> Opened:
    """``open_dataset`` of the large array, written as ``dataset.npy``; its values are three of its rows
    (first, middle, last)."""
    path = _write_large(rows, cols, seed)
    return _opened(impl, path, lambda opened: np.asarray(opened[[0, rows // 2, rows - 1]]))


@dataclass(frozen=True)
class Batch(Report):
    batch: Any  # what get_batch returned
    next_draw: int  # the generator's next integers(0, 2**62) after the call


@probe(subject="training.get_batch")
def get_batch(impl: Implementation, rows: int, dim: int, batch_size: int, seed: int, memmap: bool,
              device: str | None = None) -> Batch:
    """One ``get_batch`` on a seeded dataset (in memory or memory-mapped), and the generator's next draw.

    The next draw shows how many numbers the implementation took from ``rng``:
    exactly one ``rng.integers(0, N, size=batch_size)`` call is the spec. ``device``: passed on; what
    comes back is then only where each returned tensor lies (the meta device holds no values).
    """
    data = make_data(rows, dim, seed)
    rng = np.random.default_rng([seed, 1])
    if memmap:
        path = os.path.join(Scratch.fresh(), DATASET)
        np.save(path, data)
        data = np.load(path, mmap_mode="r")
    function = impl.function("training.get_batch")
    if device is None:
        batch = function(data, batch_size, rng)
    else:
        with _pinning_stands_aside():
            batch = function(data, batch_size, rng, device)
    Scratch.clear()
    if device is not None:
        # a named tuple's fields as they are, whatever its class makes of iteration (``Batch(x, y)`` is the pair)
        items = tuple.__getitem__(batch, slice(None)) if isinstance(batch, tuple) else \
            list.__getitem__(batch, slice(None)) if type(batch) is list else None
        where = tuple(_placed(t) for t in items) if items is not None else type(batch).__name__
        return Batch(where, int(rng.integers(0, 2**62)))
    return Batch(dense(batch), int(rng.integers(0, 2**62)))


@contextlib.contextmanager
def _pinning_stands_aside():
    """``Tensor.pin_memory()`` hands the tensor back as it is, for one call: pinning asks for a GPU, which a
    machine that grades may not have, and the device checks ask where a batch goes, not how it got there. So
    a batch pinned for any device but the CPU, then moved, is seen moved, and one pinned and left behind is
    seen left behind."""
    pin = torch.Tensor.pin_memory
    torch.Tensor.pin_memory = lambda self, *args, **kwargs: self
    try:
        yield
    finally:
        torch.Tensor.pin_memory = pin


def _placed(t: Any) -> str:
    """The device type of a plain tensor, as torch holds it; any other object (a tensor subclass too, whose
    ``device`` may be a property of its own) as "a" and its type's name, which no device's name is (a class
    may be called ``meta``)."""
    return t.device.type if type(t) in (torch.Tensor, torch.nn.Parameter) else f"a {type(t).__name__}"


@probe(subject="training.get_batch", batch=False)
def get_large_batch(impl: Implementation, rows: int, cols: int, batch_size: int, seed: int) -> Batch:
    """One ``get_batch`` on a memory map of the large array (``np.load(path, mmap_mode="r")`` of a file the
    harness wrote a chunk at a time), and the generator's next draw: the door sees how far the call raised
    the process's resident memory (the rows it touched, or the whole file copied)."""
    data = np.load(_write_large(rows, cols, seed), mmap_mode="r")
    rng = np.random.default_rng([seed, 1])
    try:
        batch = impl.function("training.get_batch")(data, batch_size, rng)
        return Batch(dense(batch), int(rng.integers(0, 2**62)))
    finally:
        del data
        Scratch.clear()


# --------------------------------------------------------------------------- training loop
@dataclass(frozen=True)
class Trained(Report):
    losses: Any  # what train returned
    params: dict[str, torch.Tensor]  # the model's parameters (and buffer) after it
    grads: dict[str, str]  # each parameter's .grad after it: "none", "zero" or "nonzero"
    optimizer: Any  # the state of the optimizer train was given, after it (its moments, step counts)
    next_draw: int  # what the generator train was given draws next, after it: the batches were drawn from it


@probe(subject="training.train", timeout=TRAIN_TIMEOUT)
def train(impl: Implementation, dim: int, num_layers: int, rows: int, batch_size: int,
          num_steps: int, seed: int, fitted: bool = False) -> Trained:
    """The implementation's ``train`` on the harness's model and AdamW: the losses, then the model's state
    (``fitted``: on data the model already fits)."""
    return _trained(impl, make_run(dim, num_layers, rows, seed, fitted=fitted), num_steps, batch_size)


@dataclass(frozen=True)
class FedOn(Report):
    device: str  # the device type of the first x the model's forward was given ("" if it never was)


class _FirstForward(BaseException):
    """Stops ``train`` at its first forward: what it was fed is all this probe asks."""


@probe(subject="training.train", timeout=TRAIN_TIMEOUT)
def train_device(impl: Implementation, dim: int, num_layers: int, rows: int, batch_size: int, seed: int,
                 device: str) -> FedOn:
    """``train(..., device=device)`` on the harness's model, placed on that device as a caller would place it
    (a train that checks its model's device against the one it is given finds them alike), stopped at the
    model's first forward: where the batch it was fed lies (the meta device holds no values, so nothing
    past it could run anyway)."""
    model, _, data, rng = make_run(dim, num_layers, rows, seed)
    model.to(device)
    optimizer = OPTIMIZERS["adamw"](model.parameters())
    seen: list[str] = []

    def first_forward(module, args):
        seen.append(_placed(args[0]) if args else "nothing")
        raise _FirstForward

    model.register_forward_pre_hook(first_forward)
    try:
        with _pinning_stands_aside():
            impl.function("training.train")(model, optimizer, data, 1, batch_size, rng, device)
    except _FirstForward:
        pass
    return FedOn(seen[0] if seen else "")


def _trained(impl: Implementation, run: tuple, num_steps: int, batch_size: int) -> Trained:
    model, optimizer, data, rng = run
    losses = impl.function("training.train")(model, optimizer, data, num_steps, batch_size, rng)
    grads = {name: "none" if p.grad is None else "zero" if not bool(p.grad.any()) else "nonzero"
             for name, p in model.named_parameters()}
    return Trained(dense(losses), parameters(model), grads, dense_state(optimizer.state_dict()["state"]),
                   int(rng.integers(2**62)))


# --------------------------------------------------------------------------- checkpoints
# a saved run's learning rate, as a share of a fresh optimizer's: lowered during the run, as a schedule does,
# so that a loader that keeps the fresh optimizer's settings (its param_groups) and takes only the moments
# from the file resumes at the wrong rate
SAVED_LR_SHARE = 0.5


def stepped_run(dim: int, num_layers: int, seed: int, steps: int, optimizer_name: str = "adamw"):
    """A model and an optimizer (AdamW unless named) that has taken ``steps`` steps, on gradients drawn
    from the seed (no data, no loss: only a state worth saving, with moments and step counts), its
    learning rate then lowered to ``SAVED_LR_SHARE`` of a fresh one's."""
    model, optimizer, _, _ = make_run(dim, num_layers, 1, seed, optimizer_name)
    generator = torch.Generator().manual_seed(seed + 2)
    for _ in range(steps):
        for p in model.parameters():
            p.grad = torch.randn(p.shape, generator=generator)
        optimizer.step()
    optimizer.zero_grad()
    for group in optimizer.param_groups:
        group["lr"] *= SAVED_LR_SHARE
    return model, optimizer


@probe(subject="training.save_checkpoint", timeout=TRAIN_TIMEOUT, batch=False)
def checkpoint_file(impl: Implementation, dim: int, num_layers: int, seed: int, steps: int,
                    step: int | None = None) -> bytes:
    """``save_checkpoint(path, model, optimizer, step)`` of a model and AdamW stepped ``steps`` times (``step``
    None: ``steps``; the caller's count may be another, a run resumed or counted from elsewhere): the file's bytes."""
    return _saved(impl, *stepped_run(dim, num_layers, seed, steps), steps if step is None else step)


def _saved(impl: Implementation, model: nn.Module, optimizer: torch.optim.Optimizer, steps: int) -> bytes:
    path = os.path.join(Scratch.fresh(), "checkpoint.pt")
    impl.function("training.save_checkpoint")(path, model, optimizer, steps)
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return b""  # nothing was written: loading it will say so
    finally:
        Scratch.clear()


RESUME_SEED = 7  # draws the gradients of the step a restore is followed by


@dataclass(frozen=True)
class Restored(Report):
    """A fresh model and AdamW after ``load_checkpoint``."""

    step: Any  # what load_checkpoint returned
    params: dict[str, torch.Tensor]
    optimizer: Any  # optimizer.state_dict(), as plain data
    resumed: dict[str, torch.Tensor]  # the parameters after one more optimizer.step() (gradients drawn here)


@probe(subject="training.load_checkpoint", timeout=TRAIN_TIMEOUT, process="separate", batch=False)
def restore_checkpoint(impl: Implementation, dim: int, num_layers: int, seed: int, blob: bytes) -> Restored:
    """``load_checkpoint`` of a file holding ``blob`` into a fresh model and AdamW (other weights, no state).

    Runs in a process of its own: what it reports can only have come through the file.
    """
    model, optimizer, _, _ = make_run(dim, num_layers, 1, seed + 1)
    return _restored(impl, model, optimizer, blob)


def _restored(impl: Implementation, model: nn.Module, optimizer: torch.optim.Optimizer, blob: bytes) -> Restored:
    path = os.path.join(Scratch.fresh(), "checkpoint.pt")
    with open(path, "wb") as handle:
        handle.write(blob)
    try:
        step = impl.function("training.load_checkpoint")(path, model, optimizer)
    finally:
        Scratch.clear()
    loaded, state = parameters(model), dense_state(optimizer.state_dict())
    # training goes on: the optimizer must still hold the model's parameters (load_state_dict(assign=True)
    # gives the model new ones, which the optimizer never moves)
    generator = torch.Generator().manual_seed(RESUME_SEED)
    for p in model.parameters():
        p.grad = torch.randn(p.shape, generator=generator)
    optimizer.step()
    return Restored(dense(step), loaded, state, parameters(model))


# What the checkpoint that calls code leaves where the door sees it from outside the worker: a loader that
# runs the pickle and then raises, as if it had refused it, cannot take back a folder it made (nor the
# seconds a call waited: the door's clock sees those where it cannot look into the worker's files)
CODE_SECONDS = 3.0
# what that pickle calls, as (module, function, arguments): a folder made at a path the test chooses, then
# a call that waits CODE_SECONDS without the CPU
MAKES = ("os", "mkdir")
WAITS = ("time", "sleep", (CODE_SECONDS,))
# what its pickle calls to rebuild the step, (module, class), and the key of the note that makes and waits: the
# hidden test's differ, so a loader that refuses only files naming these is not graded as one that refuses code
REBUILDS = ("fractions", "Fraction")
NOTE = "note"


class _Calls:
    """Pickled as a call of ``function(*args)``, the function named by its module and name."""

    def __init__(self, function, args: tuple) -> None:
        self.function, self.args = function, args

    def __reduce__(self):
        return self.function, self.args


def coded_checkpoint(dim: int, num_layers: int, seed: int, steps: int, trace: str, makes: tuple = MAKES,
                     waits: tuple = WAITS, rebuilds: tuple = REBUILDS, note_key: str = NOTE) -> bytes:
    """A checkpoint of a stepped run as torch.save writes it, with its step a ``rebuilds`` (by default a
    ``fractions.Fraction``, whose pickle calls ``fractions.Fraction`` to rebuild it: harmless, but
    ``os.system`` would be called the same way) and a note (at ``note_key``) whose pickle calls ``makes``
    (module, function) on the path ``trace``, then ``waits``.
    Built where no submission ran (``coded_checkpoint_here``): the functions are looked up, and pickled by
    name, in a process none can have put its own function under the name in (a loader that runs the pickle
    calls what the name names where it loads)."""
    model, optimizer = stepped_run(dim, num_layers, seed, steps)
    state = {"model": model.state_dict(), "optimizer": optimizer.state_dict()}
    calls = ((*makes, (trace,)), waits)
    note = [_Calls(getattr(importlib.import_module(module), name), tuple(args)) for module, name, args in calls]
    buffer = io.BytesIO()
    step = getattr(importlib.import_module(rebuilds[0]), rebuilds[1])(steps)
    torch.save({**state, "step": step, note_key: note}, buffer)
    return buffer.getvalue()


@judge(subject="training.load_checkpoint", clean=True, record=False)
def coded_checkpoint_made(dim: int, num_layers: int, seed: int, steps: int, trace: str, makes: tuple,
                          waits: tuple, rebuilds: tuple, note_key: str) -> bytes:
    """``coded_checkpoint``, built in a clean worker when grading (``grader/judges/part09.py``): a process
    no submission ran in, warm, its optimizers' first use already paid (in the grading process it imports
    torch's compiler, a second of CPU). Elsewhere the test builds it itself (``coded_checkpoint_here``)."""


def coded_checkpoint_here(oracle, *args) -> bytes:
    """``coded_checkpoint(*args)`` where no submission ran: a clean worker's, where the oracle has one,
    else this process's (the student's own run, or the grader's with isolation off)."""
    if oracle is not None and oracle.available(coded_checkpoint_made):
        return oracle.run(coded_checkpoint_made, *args)
    return coded_checkpoint(*args)


@dataclass(frozen=True)
class Loaded(Report):
    """A fresh model and AdamW after ``load_checkpoint`` of a checkpoint of plain state, as torch.save wrote it."""

    step: Any  # what it returned
    params: dict[str, torch.Tensor]  # the fresh model's state after it
    optimizer: Any  # the fresh AdamW's state_dict after it, as plain data


@probe(subject="training.load_checkpoint", timeout=TRAIN_TIMEOUT, batch=False)
def load_plain_checkpoint(impl: Implementation, dim: int, num_layers: int, seed: int, steps: int) -> Loaded:
    """``load_checkpoint`` into a fresh model and AdamW of a checkpoint of a stepped run, as torch.save
    wrote it: what it returned, and the state it loaded (a loader that refuses code must still load)."""
    load = impl.function("training.load_checkpoint")
    model, optimizer = stepped_run(dim, num_layers, seed, steps)
    folder = Scratch.fresh()
    try:
        plain = os.path.join(folder, "plain.pt")
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": steps}, plain)
        fresh, fresh_optimizer, _, _ = make_run(dim, num_layers, 1, seed + 1)
        step = load(plain, fresh, fresh_optimizer)
        # torch's pool of threads for parallel ops, started here if this process has none yet: started in the
        # next call (``load_refusing_code``), its threads would read as left running by the loader
        torch.ones(1 << 20).add_(1)
        return Loaded(dense(step), parameters(fresh), dense_state(fresh_optimizer.state_dict()))
    finally:
        Scratch.clear()


@dataclass(frozen=True)
class Refusal(Report):
    """``load_checkpoint`` of a file whose pickle calls a global ``torch.load(path, weights_only=True)`` refuses."""

    refused: tuple[str, ...] | None  # the exception it raised, with its causes (None: it loaded the file)


@probe(subject="training.load_checkpoint", timeout=TRAIN_TIMEOUT, batch=False)
def load_refusing_code(impl: Implementation, dim: int, num_layers: int, seed: int, coded: bytes) -> Refusal:
    """``load_checkpoint`` into a fresh model and AdamW of ``coded`` (``coded_checkpoint``), whose pickle calls
    functions: the door sees the call that runs them (the folder made, the time the call took). The call holds
    nothing but the load and what it needs (a file written, a small model and AdamW made), so that a refusal
    takes milliseconds of it, however busy the machine."""
    load = impl.function("training.load_checkpoint")
    folder = Scratch.fresh()
    try:
        calls = os.path.join(folder, "calls.pt")
        with open(calls, "wb") as handle:
            handle.write(coded)
        fresh, fresh_optimizer, _, _ = make_run(dim, num_layers, 1, seed + 1)
        try:
            load(calls, fresh, fresh_optimizer)
        except NotImplementedError:
            raise
        except Exception as error:  # noqa: BLE001 - what it raised, and what that was raised from
            chain: list[str] = []
            while error is not None and len(chain) < 8:
                chain.append(type(error).__name__)
                error = error.__cause__ or error.__context__
            return Refusal(tuple(chain))
        return Refusal(None)
    finally:
        Scratch.clear()


def dense_state(value: Any) -> Any:
    """An optimizer's state_dict as plain data (tensors copied, containers kept)."""
    if type(value) is dict:
        return {k: dense_state(v) for k, v in value.items()}
    if type(value) in (list, tuple):
        return type(value)(dense_state(v) for v in value)
    return dense(value)


# --------------------------------------------------------------------------- other optimizers
# The same runs with another of torch's optimizers, by name (``OPTIMIZERS``).
@probe(subject="training.train", timeout=TRAIN_TIMEOUT)
def train_with(impl: Implementation, optimizer: str, dim: int, num_layers: int, rows: int, batch_size: int,
               num_steps: int, seed: int) -> Trained:
    """``train`` as the probe ``train`` runs it, with the named optimizer: the losses, then the model's state."""
    return _trained(impl, make_run(dim, num_layers, rows, seed, optimizer), num_steps, batch_size)


@probe(subject="training.save_checkpoint", timeout=TRAIN_TIMEOUT, batch=False)
def checkpoint_file_with(impl: Implementation, optimizer: str, dim: int, num_layers: int, seed: int,
                         steps: int) -> bytes:
    """``save_checkpoint(path, model, optimizer, steps)`` of a stepped model and named optimizer: the file's bytes."""
    return _saved(impl, *stepped_run(dim, num_layers, seed, steps, optimizer), steps)


@probe(subject="training.load_checkpoint", timeout=TRAIN_TIMEOUT, process="separate", batch=False)
def restore_checkpoint_with(impl: Implementation, optimizer: str, dim: int, num_layers: int, seed: int,
                            blob: bytes) -> Restored:
    """``load_checkpoint`` of a file holding ``blob`` into a fresh model and named optimizer, in a process
    of its own (as ``restore_checkpoint``)."""
    model, opt, _, _ = make_run(dim, num_layers, 1, seed + 1, optimizer)
    return _restored(impl, model, opt, blob)
