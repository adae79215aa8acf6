"""Part 9 reference: data, the training loop, checkpoints."""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn


def open_dataset(path) -> np.ndarray:
    # mmap_mode="r": nothing is read until a row is touched, and the file cannot be modified
    return np.load(path, mmap_mode="r")


def get_batch(
    data: np.ndarray, batch_size: int, rng: np.random.Generator, device="cpu"
) -> tuple[torch.Tensor, torch.Tensor]:
    if data.ndim != 2 or data.shape[1] < 2:
        raise ValueError(f"data must be (N, dim + 1) with dim >= 1, got shape {data.shape}")
    if len(data) == 0:
        raise ValueError("data has no rows")
    if batch_size < 1:
        raise ValueError(f"batch_size must be >= 1, got {batch_size}")
    rows = rng.integers(0, len(data), size=batch_size)  # with replacement: one draw per batch
    # fancy indexing copies just these rows out of the (memory-mapped) file
    x = torch.from_numpy(np.ascontiguousarray(data[rows, :-1], dtype=np.float32))  # (batch_size, dim)
    y = torch.from_numpy(np.ascontiguousarray(data[rows, -1], dtype=np.float32))  # (batch_size,)
    return x.to(device), y.to(device)


def train(
    model: nn.Module,
    optimizer: torch.optim.Optimizer,
    data: np.ndarray,
    num_steps: int,
    batch_size: int,
    rng: np.random.Generator,
    device="cpu",
) -> list[float]:
    if num_steps < 0:
        raise ValueError(f"num_steps must be >= 0, got {num_steps}")
    if batch_size < 1:
        raise ValueError(f"batch_size must be >= 1, got {batch_size}")
    losses = []
    for _ in range(num_steps):
        x, y = get_batch(data, batch_size, rng, device)
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()  # else the next backward adds onto these gradients
        losses.append(loss.item())  # a Python float: keeping the tensor would keep its graph
    return losses


def save_checkpoint(path, model: nn.Module, optimizer: torch.optim.Optimizer, step: int) -> None:
    if step < 0:
        raise ValueError(f"step must be >= 0, got {step}")
    # the optimizer's state (AdamW's moments and step count) is as much a part of
    # training as the weights: without it a resumed run takes different steps
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step}, path)


def load_checkpoint(path, model: nn.Module, optimizer: torch.optim.Optimizer) -> int:
    # weights_only: a checkpoint is data, never code to run; map to the CPU and let
    # load_state_dict copy each tensor to wherever the parameter lives
    checkpoint = torch.load(path, map_location="cpu", weights_only=True)
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    return int(checkpoint["step"])
