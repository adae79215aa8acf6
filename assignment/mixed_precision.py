"""Part 10 — mixed precision with autocast.

Mixed precision runs the expensive part of training, the matmuls, in a 16-bit
format (activations take half the memory, tensor cores run several times
faster), while everything that accumulates small changes stays float32: the
parameters (the "master" copy), their gradients, the optimizer state and the
loss, a mean over the batch.

``torch.autocast`` does this per op, without touching the model: inside
``with torch.autocast(device_type, dtype=torch.bfloat16):`` every matmul casts a
*copy* of its inputs to bfloat16 and returns a bfloat16 result; the float32
parameters themselves are never converted. The training loop from the lecture:

    with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
        output = model(x)           # the matmuls run in bf16
        loss = criterion(output, y)
    loss.backward()                 # each op's backward runs in its forward's dtype
    optimizer.step()
    optimizer.zero_grad()

Which 16-bit format matters. bfloat16 keeps float32's 8 exponent bits (same
range, down to ~1e-38) and gives up mantissa bits (8 significant bits instead of
24). float16 has 11 significant bits but only 5 exponent bits: its smallest
value is 2**-24 ≈ 6e-8, so small gradients flush to zero
(``torch.tensor([1e-8], dtype=torch.float16)`` is 0, while bfloat16 keeps 1e-8).
float16 training therefore multiplies the loss by a large scale before backward
(``torch.amp.GradScaler``) and divides the gradients by it before the step;
bfloat16 needs no such trick, and putting a GradScaler on bf16 only hides the
difference between the two formats.

Memory (lecture ledger): bf16 parameters 2P + fp32 master parameters 4P + fp32
gradients 4P + fp32 AdamW moments 8P = 18P bytes, versus 16P in pure float32;
the gain is in the activations, which autocast stores in 16 bits.

Check yourself: under autocast, ``(x @ w).dtype`` is the autocast dtype even
though ``x`` and ``w`` are float32; a forward hook
(``module.register_forward_hook``) shows each layer's output dtype.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F  # noqa: F401  (you will want F.mse_loss)
from torch import nn


def needs_grad_scaler(dtype: torch.dtype) -> bool:
    """Whether training with autocast in ``dtype`` needs a GradScaler: the range question.

    A format needs loss scaling when its exponent range is narrower than
    float32's, so that small gradients underflow to zero:

        torch.float16  -> True    (5 exponent bits: 1e-8 rounds to 0)
        torch.bfloat16 -> False   (8 exponent bits, as float32: 1e-8 is kept)
        torch.float32  -> False   (no autocast at all: nothing to rescue)

    Compare ``torch.finfo(dtype).tiny`` (the smallest normal value) with
    float32's. A dtype that is not a floating-point training format
    (``torch.int32``, ``torch.float8_e4m3fn``) raises ``ValueError``.
    """
    raise NotImplementedError("mixed_precision.needs_grad_scaler")


def autocast_train_step(
    model: nn.Module,
    optimizer: torch.optim.Optimizer,
    x: torch.Tensor,
    y: torch.Tensor,
    dtype: torch.dtype = torch.bfloat16,
    device_type: str = "cpu",
    scaler: torch.amp.GradScaler | None = None,
) -> float:
    """One mixed-precision training step; returns the loss as a Python float.

    ``model(x)`` has shape (batch,), like ``y``. In order:

    1. Under ``torch.autocast(device_type=device_type, dtype=dtype)``: the
       forward pass (its matmuls then run in ``dtype``) and the loss,
       ``F.mse_loss`` reduced in float32: take ``pred.float()`` so the mean is
       not rounded to 16 bits.
    2. Backward, outside the autocast block.
       Without a scaler: ``loss.backward()`` then ``optimizer.step()``.
       With a scaler (meant for float16, but whenever one is given it is
       used, whatever the dtype): ``scaler.scale(loss).backward()`` (the loss
       times the scale, so small gradients stay representable),
       ``scaler.step(optimizer)`` (divides the gradients by the scale, and
       skips the step if any of them overflowed to inf/NaN), then
       ``scaler.update()`` (halves the scale after an overflow, grows it after
       a run of clean steps).
    3. ``optimizer.zero_grad()``: gradients accumulate otherwise.
    4. Return the (unscaled) loss: ``loss.item()``.

    The parameters, and so their gradients, stay float32 throughout: never call
    ``model.to(dtype)`` or ``.half()``. ``dtype`` must be ``torch.bfloat16`` or
    ``torch.float16``, else ``ValueError``.

    Worked example (y = x @ w on the CPU, w = [[1], [1]] in float32, SGD lr 0.5):

        model = nn.Sequential(nn.Linear(2, 1, bias=False), nn.Flatten(0))
        nn.init.ones_(model[0].weight)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
        x = torch.tensor([[1.0, 2**-9]]); y = torch.tensor([0.0])
        autocast_train_step(model, optimizer, x, y)  -> 1.0

    In float32 the prediction 1 + 2**-9 gives loss 1.0039100646972656, but
    bfloat16 keeps 8 significant bits, so the matmul's output rounds to 1.0.
    The gradient 2 * pred * x = [2, 2**-8] then moves the float32 weight to
    [[0.0, 0.998046875]] (= 1 - 2**-9).

    The same step with ``dtype=torch.float16`` and
    ``scaler=torch.amp.GradScaler("cpu", init_scale=1024.0)`` returns
    1.0039100646972656 (float16 keeps 11 significant bits, so 1 + 2**-9
    survives). With the default ``GradScaler("cpu")`` (scale 2**16), the scaled
    gradient 2 * 1.00195 * 65536 ≈ 131328 overflows float16 (max 65504):
    ``scaler.step`` skips the update (the weight stays [[1.0, 1.0]]) and
    ``scaler.update()`` halves the scale to 32768.0. That is normal: the scale
    calibrates itself in the first steps.
    """
    raise NotImplementedError("mixed_precision.autocast_train_step")
