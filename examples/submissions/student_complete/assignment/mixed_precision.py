"""Part 10 — mixed precision with autocast.

Autocast runs the matmuls in a 16-bit format while the parameters, their
gradients, the optimizer state and the loss stay float32. float16 has a narrow
exponent range, so its gradients need loss scaling (GradScaler); bfloat16 has
float32's range and does not.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

# Floating-point formats one trains in (parameters or autocast compute).
_TRAINING_DTYPES = (torch.float64, torch.float32, torch.bfloat16, torch.float16)
_AUTOCAST_DTYPES = (torch.bfloat16, torch.float16)


def needs_grad_scaler(dtype: torch.dtype) -> bool:
    """True when ``dtype`` cannot reach float32's small values, so gradients would flush to zero.

    float16's smallest normal is 2**-14 ~ 6e-5 against float32's ~1.2e-38;
    bfloat16 shares float32's exponent and so its range.
    """
    if dtype not in _TRAINING_DTYPES:
        raise ValueError(f"{dtype!r} is not a floating-point training dtype; "
                         f"expected one of {_TRAINING_DTYPES}")
    return torch.finfo(dtype).tiny > torch.finfo(torch.float32).tiny


def autocast_train_step(
    model: nn.Module,
    optimizer: torch.optim.Optimizer,
    x: torch.Tensor,
    y: torch.Tensor,
    dtype: torch.dtype = torch.bfloat16,
    device_type: str = "cpu",
    scaler: torch.amp.GradScaler | None = None,
) -> float:
    """One training step with the forward pass under autocast; returns the (unscaled) loss."""
    if dtype not in _AUTOCAST_DTYPES:
        raise ValueError(f"autocast dtype must be torch.bfloat16 or torch.float16, got {dtype!r}")

    with torch.autocast(device_type=device_type, dtype=dtype):
        pred = model(x)
        # The mean over the batch is taken in float32, not rounded to 16 bits.
        loss = F.mse_loss(pred.float(), y.float())

    if scaler is None:
        loss.backward()
        optimizer.step()
    else:
        scaler.scale(loss).backward()  # larger gradients survive float16's range
        scaler.step(optimizer)  # unscales; skips the step on inf/NaN
        scaler.update()  # adapts the scale for the next step
    optimizer.zero_grad()
    return loss.item()
