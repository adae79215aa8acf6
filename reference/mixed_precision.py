"""Part 10 reference: mixed precision with autocast."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

# dtypes that mean "no autocast": full-range formats never need a scaler
_FULL_PRECISION = (torch.float32, torch.float64)
_AUTOCAST_DTYPES = (torch.bfloat16, torch.float16)


def needs_grad_scaler(dtype: torch.dtype) -> bool:
    # float16 has 5 exponent bits: gradients below 2**-24 flush to zero unless scaled up first.
    # bfloat16 keeps float32's 8 exponent bits, so its range is float32's: nothing to rescue.
    if dtype == torch.float16:
        return True
    if dtype == torch.bfloat16 or dtype in _FULL_PRECISION:
        return False
    raise ValueError(f"{dtype} is not a floating-point training dtype (float16, bfloat16, float32)")


def autocast_train_step(
    model: nn.Module,
    optimizer: torch.optim.Optimizer,
    x: torch.Tensor,
    y: torch.Tensor,
    dtype: torch.dtype = torch.bfloat16,
    device_type: str = "cpu",
    scaler: torch.amp.GradScaler | None = None,
) -> float:
    if dtype not in _AUTOCAST_DTYPES:
        raise ValueError(f"autocast trains in bfloat16 or float16, not {dtype}")
    # autocast casts copies of the inputs of each matmul to `dtype`; the parameters stay float32
    with torch.autocast(device_type=device_type, dtype=dtype):
        pred = model(x)  # (batch,) in dtype
        # a mean over the batch is a reduction: do it in float32, whatever the device's autocast lists say
        loss = F.mse_loss(pred.float(), y.float())  # () float32
    # backward runs outside autocast: each op's backward reuses the dtype its forward ran in
    if scaler is None:
        loss.backward()
        optimizer.step()
    else:
        scaler.scale(loss).backward()  # loss * scale: small float16 gradients stay above 2**-24
        scaler.step(optimizer)  # unscales the gradients; skips the step if any is inf or NaN
        scaler.update()  # shrinks the scale after an overflow, grows it after clean steps
    optimizer.zero_grad()
    return loss.item()
