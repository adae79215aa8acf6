"""Part 9 — data, the training loop, checkpoints.

The lecture's training loop, one step at a time:

    for step in range(num_steps):
        x, y = get_batch(...)          # 1. get data
        pred_y = model(x)              # 2. forward
        loss = F.mse_loss(pred_y, y)
        loss.backward()                # 3. backward
        optimizer.step()               # 4. update the parameters
        optimizer.zero_grad()          # 5. clear the gradients (else they accumulate)

Around it: a dataset too big for memory is opened lazily from disk, and a run
that may be interrupted saves checkpoints it can resume from exactly.

Data is a float32 array of shape (N, dim + 1): each row holds one example's
``dim`` inputs, then its target in the last column.

Bad arguments (a ``batch_size`` below 1, a negative ``num_steps`` or ``step``,
data that is not (N, dim + 1) with N >= 1 and dim >= 1) raise ``ValueError``.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn


def open_dataset(path) -> np.ndarray:
    """Open a ``.npy`` file lazily: ``np.load(path, mmap_mode="r")``.

    With ``mmap_mode`` the file is memory-mapped: you get a ``numpy.memmap`` at
    once, and the operating system reads only the pages of the rows you index, so a
    dataset far bigger than RAM works. ``"r"`` opens it read-only, so a bug can
    never overwrite the data on disk (``"r+"`` and ``"c"`` give writable arrays).

    Example:
        np.save("data.npy", np.zeros((1000, 5), dtype=np.float32))
        data = open_dataset("data.npy")  # a numpy.memmap, shape (1000, 5), data.flags.writeable False
    """
    raise NotImplementedError("training.open_dataset")


def get_batch(
    data: np.ndarray, batch_size: int, rng: np.random.Generator, device="cpu"
) -> tuple[torch.Tensor, torch.Tensor]:
    """A random batch: ``batch_size`` rows drawn with replacement, split into inputs and targets.

    Take the rows with exactly one call, ``rows = rng.integers(0, len(data),
    size=batch_size)`` (the same rows for a given generator state is what makes a
    run reproducible, and tests check the generator's state afterwards). Then
    ``x = data[rows, :-1]`` of shape (batch_size, dim) and ``y = data[rows, -1]``
    of shape (batch_size,), both float32 torch tensors on ``device``
    (``torch.from_numpy`` then ``.to(device)``). Indexing a memmap with ``rows``
    copies just those rows into memory. (On a GPU the lecture adds
    ``pin_memory()`` and ``non_blocking=True`` to overlap the copy with compute.)

    Example:
        data = np.arange(12, dtype=np.float32).reshape(4, 3)
        get_batch(data, 2, np.random.default_rng(0))
        # rows [3, 2]: x = tensor([[9., 10.], [6., 7.]]), y = tensor([11., 8.])
    """
    raise NotImplementedError("training.get_batch")


def train(
    model: nn.Module,
    optimizer: torch.optim.Optimizer,
    data: np.ndarray,
    num_steps: int,
    batch_size: int,
    rng: np.random.Generator,
    device="cpu",
) -> list[float]:
    """Run ``num_steps`` steps of the lecture's loop; return each step's loss as a Python float.

    Per step, in this order: ``x, y = get_batch(data, batch_size, rng, device)``,
    ``loss = F.mse_loss(model(x), y)``, ``loss.backward()``, ``optimizer.step()``,
    ``optimizer.zero_grad()``. Record ``loss.item()``: a float, not the tensor
    (a kept loss tensor keeps its whole autograd graph alive).

    ``backward`` *adds* into ``.grad``; without ``zero_grad`` every step would use
    the sum of all gradients so far. Clearing at the end of the step (PyTorch's
    default ``set_to_none=True`` sets each ``.grad`` to None) also leaves the model
    clean when ``train`` returns, which the tests check.

    Example: ``train(model, optimizer, data, 3, 8, rng)`` returns a list of 3 floats.
    """
    raise NotImplementedError("training.train")


def save_checkpoint(path, model: nn.Module, optimizer: torch.optim.Optimizer, step: int) -> None:
    """Save everything needed to resume training exactly, with ``torch.save``, to ``path``.

    As in the lecture: a dict ``{"model": model.state_dict(), "optimizer":
    optimizer.state_dict(), "step": step}``. The optimizer's state matters as much
    as the weights: AdamW keeps two moments per parameter and a step count (used
    for bias correction), so a run resumed without them takes different steps.

    Round trip: training 2n steps straight must equal n steps, save, load into a
    freshly built model and optimizer, then n more steps. Raise ``ValueError`` if
    ``step`` is negative. Leave ``torch.save``'s options as they are: grading reads
    the file itself, in the default (zip) format only.
    """
    raise NotImplementedError("training.save_checkpoint")


def load_checkpoint(path, model: nn.Module, optimizer: torch.optim.Optimizer) -> int:
    """Restore ``model`` and ``optimizer`` in place from ``path``; return the saved step.

    ``checkpoint = torch.load(path, weights_only=True)`` (always say
    ``weights_only``: loading arbitrary pickles can run code), then
    ``model.load_state_dict(checkpoint["model"])``,
    ``optimizer.load_state_dict(checkpoint["optimizer"])``, and return
    ``checkpoint["step"]`` as an int. The tests also hand it files they saved
    themselves in the layout ``save_checkpoint`` documents (the step a plain int), so
    read that layout, not only what your own ``save_checkpoint`` writes.
    """
    raise NotImplementedError("training.load_checkpoint")
