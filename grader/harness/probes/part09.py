"""Probes for Part 9: datasets on disk, batches, the training loop, checkpoints.

Part 9 never uses the implementation's ``Cruncher`` or ``Linear`` (Part 8): the
model is the harness's own ``DeepLinear``, the optimizer torch's ``AdamW``, and
data and generators come from the probe's arguments, so both sides of a test
run the very same scenario. Files go to a fresh temporary folder, removed after.
Tensors the implementation returns are sent as plain row-major copies.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from typing import Any, Iterator

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from grader.harness.impl import Implementation
from grader.harness.probes import probe

LEARNING_RATE = 1e-2
TRAIN_TIMEOUT = 20.0


class DeepLinear(nn.Module):
    """The harness's model: ``num_layers`` dim×dim linear layers (with bias), then dim×1."""

    def __init__(self, dim: int, num_layers: int) -> None:
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(dim, dim) for _ in range(num_layers))
        self.final = nn.Linear(dim, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.layers:
            x = layer(x)  # (batch, dim)
        return self.final(x).squeeze(-1)  # (batch,)


def make_data(rows: int, dim: int, seed: int) -> np.ndarray:
    """(rows, dim + 1) float32: inputs, then a noisy linear target in the last column."""
    gen = np.random.default_rng(seed)
    x = gen.standard_normal((rows, dim))
    y = x @ gen.standard_normal(dim) + 0.1 * gen.standard_normal(rows)
    return np.concatenate([x, y[:, None]], axis=1).astype(np.float32)


def make_run(dim: int, num_layers: int, rows: int, seed: int):
    """Model, AdamW, data and the batch generator of one scenario, all from ``seed``."""
    torch.default_generator.manual_seed(seed)
    model = DeepLinear(dim, num_layers)
    optimizer = torch.optim.AdamW(model.parameters(), lr=LEARNING_RATE)
    return model, optimizer, make_data(rows, dim, seed), np.random.default_rng([seed, 1])


def harness_steps(model: nn.Module, optimizer: torch.optim.Optimizer, data: np.ndarray,
                  rng: np.random.Generator, num_steps: int, batch_size: int) -> None:
    """The harness's own training loop (the spec's, written independently of the implementation)."""
    for _ in range(num_steps):
        rows = rng.integers(0, len(data), size=batch_size)
        x = torch.from_numpy(data[rows, :-1])
        y = torch.from_numpy(data[rows, -1])
        F.mse_loss(model(x), y).backward()
        optimizer.step()
        optimizer.zero_grad()


def parameters(model: nn.Module) -> dict[str, torch.Tensor]:
    return {name: p.detach().clone() for name, p in model.named_parameters()}


def adam_state(model: nn.Module, optimizer: torch.optim.Optimizer) -> dict[str, dict[str, Any]]:
    """AdamW's per-parameter state (moments and step count), by parameter name."""
    return {
        name: {key: value.detach().clone() if isinstance(value, torch.Tensor) else value
               for key, value in optimizer.state.get(p, {}).items()}
        for name, p in model.named_parameters()
    }


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


@contextmanager
def scratch_folder() -> Iterator[str]:
    folder = tempfile.mkdtemp(prefix="probe-")
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# --------------------------------------------------------------------------- data
@probe("training.open_dataset", subject="training.open_dataset")
def open_dataset(impl: Implementation, rows: int, cols: int, seed: int) -> dict:
    """Save a (rows, cols) float32 array as .npy, open it with the implementation, describe what came back."""
    data = np.random.default_rng(seed).standard_normal((rows, cols)).astype(np.float32)
    with scratch_folder() as folder:
        path = os.path.join(folder, "data.npy")
        np.save(path, data)
        opened = impl.function("training.open_dataset")(path)
        is_array = isinstance(opened, np.ndarray)
        answer = {
            "type": f"{type(opened).__module__}.{type(opened).__qualname__}",
            "read_only": (not opened.flags.writeable) if is_array else None,
            "values": torch.from_numpy(np.array(opened)) if is_array else None,  # a copy: the file goes away
        }
        del opened  # the memory map holds the file open
    return answer


@probe("training.get_batch", subject="training.get_batch")
def get_batch(impl: Implementation, rows: int, dim: int, batch_size: int, seed: int, memmap: bool) -> dict:
    """One ``get_batch`` on a seeded dataset (in memory or memory-mapped), and the generator's next draw.

    The next draw shows how many numbers the implementation took from ``rng``:
    exactly one ``rng.integers(0, N, size=batch_size)`` call is the spec.
    """
    data = make_data(rows, dim, seed)
    rng = np.random.default_rng([seed, 1])
    if memmap:
        with scratch_folder() as folder:
            path = os.path.join(folder, "data.npy")
            np.save(path, data)
            batch = impl.function("training.get_batch")(np.load(path, mmap_mode="r"), batch_size, rng)
    else:
        batch = impl.function("training.get_batch")(data, batch_size, rng)
    return {"batch": dense(batch), "next_draw": int(rng.integers(0, 2**62))}


# --------------------------------------------------------------------------- training loop
@probe("training.train", subject="training.train", timeout=TRAIN_TIMEOUT)
def train(impl: Implementation, dim: int, num_layers: int, rows: int, batch_size: int,
          num_steps: int, seed: int) -> dict:
    """The implementation's ``train`` on the harness's model and AdamW: the losses, then the parameters."""
    model, optimizer, data, rng = make_run(dim, num_layers, rows, seed)
    losses = impl.function("training.train")(model, optimizer, data, num_steps, batch_size, rng)
    return {"losses": dense(losses), "params": parameters(model)}


@probe("training.train_leaves_grads", subject="training.train", timeout=TRAIN_TIMEOUT)
def train_leaves_grads(impl: Implementation, dim: int, num_layers: int, rows: int, batch_size: int,
                       num_steps: int, seed: int) -> dict[str, str]:
    """After ``train``: each parameter's ``.grad`` as "none", "zero" or "nonzero"."""
    model, optimizer, data, rng = make_run(dim, num_layers, rows, seed)
    impl.function("training.train")(model, optimizer, data, num_steps, batch_size, rng)
    return {
        name: "none" if p.grad is None else "zero" if not bool(p.grad.any()) else "nonzero"
        for name, p in model.named_parameters()
    }


# --------------------------------------------------------------------------- checkpoints
@probe("training.checkpoint", subject="training.load_checkpoint", timeout=TRAIN_TIMEOUT)
def checkpoint(impl: Implementation, dim: int, num_layers: int, rows: int, batch_size: int,
               num_steps: int, seed: int) -> dict:
    """Train ``num_steps`` (the harness's loop), save, load into a fresh model and AdamW, train ``num_steps`` more.

    The fresh model starts from other weights, so only a checkpoint that restores
    the model AND the optimizer ends where 2 × ``num_steps`` straight would.
    """
    model, optimizer, data, rng = make_run(dim, num_layers, rows, seed)
    harness_steps(model, optimizer, data, rng, num_steps, batch_size)
    saved_params, saved_adam = parameters(model), adam_state(model, optimizer)
    fresh_model, fresh_optimizer, _, _ = make_run(dim, num_layers, rows, seed + 1)
    with scratch_folder() as folder:
        path = os.path.join(folder, "checkpoint.pt")
        impl.function("training.save_checkpoint")(path, model, optimizer, num_steps)
        step = impl.function("training.load_checkpoint")(path, fresh_model, fresh_optimizer)
    answer = {
        "step": dense(step),
        "restored_model": _same(parameters(fresh_model), saved_params),
        "restored_optimizer": _same(adam_state(fresh_model, fresh_optimizer), saved_adam),
        "problem": None,
    }
    try:
        harness_steps(fresh_model, fresh_optimizer, data, rng, num_steps, batch_size)
    except Exception as error:  # what load_checkpoint left behind cannot train: say so, in plain words
        answer["problem"] = f"training after load_checkpoint failed: {type(error).__name__}: {error}"
        return answer
    return answer | {"params": parameters(fresh_model), "optimizer": adam_state(fresh_model, fresh_optimizer)}


def _same(a: Any, b: Any) -> bool:
    """Bit-for-bit equality of nested dicts of tensors and numbers."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        return a.dtype == b.dtype and a.shape == b.shape and torch.equal(a.cpu(), b.cpu())
    return type(a) is type(b) and a == b
