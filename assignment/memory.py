"""Part 3 — memory ledgers.

Before training anything, write the ledger: will it fit in GPU memory? Every
object training keeps is a tensor, and a tensor's bytes are its number of
elements times the bytes of its dtype. For a model of P parameters:

    GPU memory
    ├─ model states (scale with P)
    │  ├─ parameters / master parameters
    │  ├─ gradients
    │  └─ optimizer state (AdamW: moments m and v)
    ├─ activations (scale with batch, sequence, layers, hidden size)
    └─ temporaries, workspace, communication buffers, fragmentation

Lecture ledgers, in bytes per parameter:
    fp32 + AdamW:            4 (params) + 4 (grads) + 8 (m and v)          = 16 P
    bf16 mixed + AdamW:      2 (bf16 params) + 4 (fp32 master copy)
                             + 4 (fp32 grads) + 8 (fp32 m and v)            = 18 P

"16 bytes/param" and "18 bytes/param" are not constants to memorise: each is one
recipe's ledger, and the method is to write every line as elements x dtype bytes
(x copies). Inference keeps only the weights, the KV cache and temporaries: no
gradients, no optimizer state.

Bad arguments (a negative size, an unknown recipe, a dtype that is not a
``torch.dtype``) raise ``ValueError`` with a message saying what was wrong.

Check yourself against torch: ``t.nbytes`` (or ``t.numel() * t.element_size()``)
is a tensor's size; ``torch.empty(shape, dtype=d, device="meta")`` makes a tensor
that has a size but takes no memory.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass
class MemoryLedger:
    """Bytes of each kind of tensor that training keeps (ints, 0 when a line is absent)."""

    parameters: int = 0  # the weights forward and backward read
    master_parameters: int = 0  # a full-precision copy that the optimizer updates
    gradients: int = 0
    optimizer_state: int = 0  # AdamW: m and v; SGD with momentum: one buffer
    activations: int = 0  # tensors saved by forward for backward

    @property
    def total(self) -> int:
        """The sum of all five lines.

        Example: MemoryLedger(parameters=4, gradients=4, optimizer_state=8).total -> 16
        """
        raise NotImplementedError("memory.MemoryLedger.total")


def training_ledger(num_params: int, recipe: str) -> MemoryLedger:
    """The model-state ledger of training ``num_params`` parameters with ``recipe``.

    Each line is elements x bytes per element (fp32: 4, bf16: 2); ``activations`` is
    0 here (they depend on the batch, not on the parameters):

        recipe               parameters   master   gradients   optimizer state
        "fp32_adamw"         fp32         -        fp32        2 fp32 (m, v)     = 16 B/param
        "bf16_mixed_adamw"   bf16         fp32     fp32        2 fp32            = 18 B/param
        "bf16_adamw"         bf16         -        bf16        2 fp32            = 12 B/param
        "fp32_sgd"           fp32         -        fp32        none              =  8 B/param
        "fp32_sgd_momentum"  fp32         -        fp32        1 fp32 (buffer)   = 12 B/param

    Write it from a small table of dtypes and state counts like this one, not from the
    totals. An unknown recipe or a negative ``num_params`` raises ``ValueError``.

    Examples:
        training_ledger(1000, "fp32_adamw") -> MemoryLedger(parameters=4000,
            master_parameters=0, gradients=4000, optimizer_state=8000, activations=0)
        training_ledger(175_000_000_000, "fp32_adamw").total -> 2_800_000_000_000
            (GPT-3 size: 2.8 TB before a single activation)
    """
    raise NotImplementedError("memory.training_ledger")


def max_trainable_params(hbm_bytes: float, bytes_per_param: float) -> float:
    """The most parameters whose model states fit in ``hbm_bytes``: hbm / bytes per param.

    An upper bound (activations and buffers need room too), as a float.
    ``hbm_bytes < 0`` or ``bytes_per_param <= 0`` raises ``ValueError``.

    Example (lecture): 8 GPUs x 80 GB = 640e9 bytes at 18 bytes/param ->
    35555555555.55556, about 35.6B parameters.
    """
    raise NotImplementedError("memory.max_trainable_params")


def matrix_bytes(rows: int, cols: int, dtype: torch.dtype) -> int:
    """Bytes of a ``rows x cols`` matrix of ``dtype``.

    Example (lecture): GPT-3's d_model = 12288, d_ff = 4 x 12288 = 49152; one such
    fp32 matrix is 12288 x 49152 x 4 = 2,415,919,104 bytes (about 2.3 GB).
    """
    raise NotImplementedError("memory.matrix_bytes")


def kv_cache_bytes(num_layers: int, batch: int, seq_len: int, num_kv_heads: int,
                   head_dim: int, dtype: torch.dtype) -> int:
    """Bytes of an inference KV cache: a K and a V vector of ``head_dim`` elements for
    every layer, sequence in the batch, position and KV head.

        2 (K and V) x layers x batch x seq_len x kv heads x head_dim x bytes

    Example: 80 layers, batch 1, 4096 positions, 8 KV heads of 128, bfloat16 ->
    2 x 80 x 1 x 4096 x 8 x 128 x 2 = 1,342,177,280 bytes (1.25 GiB per sequence).
    """
    raise NotImplementedError("memory.kv_cache_bytes")


def cruncher_activation_bytes(batch: int, dim: int, num_layers: int, dtype: torch.dtype) -> int:
    """Bytes of the activations autograd saves in a forward pass of ``Cruncher(dim, num_layers)``.

    The lecture's deep linear model: ``num_layers`` layers ``x = x @ W`` with W of shape
    (dim, dim), then a final ``x @ w`` with w of shape (dim, 1). For y = x @ W the
    gradient of W is x.T @ dL/dy, so autograd keeps every layer's input x: one
    ``batch x dim`` tensor per layer, the final layer included (the model's own input
    is the first layer's). Weights are saved too (to pass the gradient on to the layer
    below), but they are parameters, already in the ledger: don't count them.

    Example: batch 32, dim 64, 2 layers, float32 -> 3 inputs x 32 x 64 x 4 = 24,576 bytes.
    """
    raise NotImplementedError("memory.cruncher_activation_bytes")
