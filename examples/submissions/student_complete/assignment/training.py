"""Part 9 — data, training loop, checkpoints.

The dataset lives in a .npy file that is memory-mapped rather than read:
only the rows a batch touches are ever loaded. Each row is ``dim`` input
features followed by the target.
"""

from __future__ import annotations

import os

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn


def open_dataset(path: str | os.PathLike) -> np.ndarray:
    """Open a ``.npy`` file lazily (``mmap_mode="r"``): nothing is read until indexed."""
    return np.load(path, mmap_mode="r")


def get_batch(
    data: np.ndarray,
    batch_size: int,
    rng: np.random.Generator,
    device: str | torch.device = "cpu",
) -> tuple[torch.Tensor, torch.Tensor]:
    """A random batch of rows, drawn with replacement.

    ``rows = rng.integers(0, len(data), size=batch_size)``; x is every column but
    the last, y the last column; both float32 tensors on ``device``.
    """
    if batch_size < 1:
        raise ValueError(f"batch_size must be >= 1, got {batch_size}")
    if data.ndim != 2 or data.shape[1] < 2:
        raise ValueError(f"data must be (N, dim + 1) with dim >= 1, got shape {data.shape}")
    if len(data) == 0:
        raise ValueError("data has no rows")

    rows = rng.integers(0, len(data), size=batch_size)
    batch = np.asarray(data[rows], dtype=np.float32)  # fancy indexing copies only these rows
    x = torch.from_numpy(np.ascontiguousarray(batch[:, :-1]))
    y = torch.from_numpy(np.ascontiguousarray(batch[:, -1]))
    return x.to(device), y.to(device)


def train(
    model: nn.Module,
    optimizer: torch.optim.Optimizer,
    data: np.ndarray,
    num_steps: int,
    batch_size: int,
    rng: np.random.Generator,
    device: str | torch.device = "cpu",
) -> list[float]:
    """Plain training loop with an MSE loss; returns the loss of every step."""
    if num_steps < 0:
        raise ValueError(f"num_steps must be >= 0, got {num_steps}")
    model.train()
    losses: list[float] = []
    for _ in range(num_steps):
        x, y = get_batch(data, batch_size, rng, device)
        pred = model(x)
        loss = F.mse_loss(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()  # gradients accumulate otherwise
        losses.append(loss.item())
    return losses


def save_checkpoint(
    path: str | os.PathLike,
    model: nn.Module,
    optimizer: torch.optim.Optimizer,
    step: int,
) -> None:
    """Save everything needed to resume: model weights, optimizer state (e.g. Adam moments), step."""
    if step < 0:
        raise ValueError(f"step must be >= 0, got {step}")
    checkpoint = {
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "step": int(step),
    }
    torch.save(checkpoint, path)


def load_checkpoint(path: str | os.PathLike, model: nn.Module, optimizer: torch.optim.Optimizer) -> int:
    """Restore model and optimizer in place from ``path``; returns the saved step."""
    checkpoint = torch.load(path, map_location="cpu", weights_only=True)
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])  # moves state to the parameters' device
    return int(checkpoint["step"])
