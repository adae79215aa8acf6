"""Inputs for Part 10: scenarios of one mixed-precision training step.

A scenario is the argument tuple of the ``mixed_precision.train_step`` probe:

    (seed, batch, dim, num_layers, optimizer, lr, dtype, device_type, init_scale, shrink[, by_default])

The probe builds a deep linear model (``num_layers`` dim×dim matmuls, then
dim×1), an optimizer and data from ``seed``. SGD makes every gradient error
visible in the parameters (AdamW's first step is about ``lr * sign(grad)``,
blind to the gradient's size); AdamW is there because it is what people train
with. ``shrink`` 12 scales the final layer and the targets by 2**-12, which
pushes the hidden layers' gradients below float16's smallest value (2**-24):
without the scaler they flush to zero. ``init_scale`` runs from 1 (no help) to
2**24, where (with shrink 0) the scaled gradients overflow float16 and the
scaler must skip the step and halve its scale. ``shrink`` -6 (a final layer and
targets 2**6 larger) grows the hidden layers' gradients twice as fast as the final
layer's, so that a scale of 2**8 overflows theirs alone; ``shrink`` 8 with 2**24
overflows the final layer's alone: a step must be skipped for an inf in any
parameter's gradient. ``by_default`` (drawn for a
bfloat16 CPU step without a scaler, the spec's defaults) leaves dtype,
device_type and scaler out of the call. Sampled lists put first what a failing
case should shrink to.
"""

from __future__ import annotations

import torch
from hypothesis import strategies as st

# the formats the lecture compares
TRAINING_DTYPES = [torch.float16, torch.bfloat16, torch.float32]
LEARNING_RATES = {"sgd": [0.1, 0.01], "adamw": [1e-3, 1e-2]}
INIT_SCALES = [2.0**8, 1.0, 2.0**16, 2.0**24]
SHRINKS = [0, 12, -6, 8]

training_dtypes = st.sampled_from(TRAINING_DTYPES)


@st.composite
def steps(draw, dtype: torch.dtype, device_type: str = "cpu", scaled: bool = False):
    """One scenario in ``dtype``; with a GradScaler of a drawn ``init_scale`` when ``scaled``."""
    optimizer = draw(st.sampled_from(sorted(LEARNING_RATES, reverse=True)))  # "sgd" first
    return (
        draw(st.integers(0, 2**16)),  # seed
        draw(st.integers(1, 16)),  # batch
        draw(st.integers(1, 16)),  # dim
        draw(st.integers(0, 3)),  # num_layers (plus the final dim×1 layer)
        optimizer,
        draw(st.sampled_from(LEARNING_RATES[optimizer])),
        dtype,
        device_type,
        draw(st.sampled_from(INIT_SCALES)) if scaled else None,
        draw(st.sampled_from(SHRINKS)),
        # the spec's defaults: also called without them, which only its defaults can answer
        *((draw(st.booleans()),) if (dtype, device_type, scaled) == (torch.bfloat16, "cpu", False) else ()),
    )


def bf16_steps_any_scaler():
    """bfloat16 steps, mostly without a scaler (it needs none), sometimes with one given anyway: the
    spec makes ``scaler`` optional whatever the dtype, and a given scaler is used."""
    return st.one_of(steps(torch.bfloat16), steps(torch.bfloat16, scaled=True))


def cuda_steps():
    """The GPU pass: bfloat16 without a scaler, float16 with one."""
    return st.one_of(steps(torch.bfloat16, "cuda"), steps(torch.float16, "cuda", scaled=True))
