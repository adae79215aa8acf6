"""Lazy Part 9: the right types, zero data, a loop that only clears gradients, checkpoints that keep
nothing, a loader that restores nothing."""

import numpy as np
import torch


def open_dataset(path):
    return np.zeros(np.load(path).shape, dtype=np.float32)


def get_batch(data, batch_size, rng, device="cpu"):
    return torch.zeros(batch_size, data.shape[1] - 1), torch.zeros(batch_size)


def train(model, optimizer, data, num_steps, batch_size, rng, device="cpu"):
    optimizer.zero_grad()
    return [0.0] * num_steps


def save_checkpoint(path, model, optimizer, step):
    torch.save({}, path)


def load_checkpoint(path, model, optimizer):
    # reads the file as it should (code refused) and gives its step back, but restores nothing: a refusal
    # earns no point from a loader that loads nothing
    return int(torch.load(path, weights_only=True)["step"])
