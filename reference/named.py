"""Part 6 reference: einops and jaxtyping.

The annotations are part of the contract: the graded tests check every call
against them with ``jaxtyped(typechecker=typeguard.typechecked)``, so the axis
names are checked at run time.
"""

import math

import einops
import torch
from jaxtyping import Float


def attention_scores(
    q: Float[torch.Tensor, "batch seq_q heads dim"],
    k: Float[torch.Tensor, "batch seq_k heads dim"],
) -> Float[torch.Tensor, "batch heads seq_q seq_k"]:
    if q.ndim != 4 or k.ndim != 4:
        raise ValueError(f"q and k must be 4-D [batch seq heads dim], got {q.ndim}-D and {k.ndim}-D")
    if (q.shape[0], q.shape[2], q.shape[3]) != (k.shape[0], k.shape[2], k.shape[3]):
        raise ValueError(f"q {tuple(q.shape)} and k {tuple(k.shape)} disagree on batch, heads or dim")
    # named axes replace k.transpose(-2, -1): `dim` is summed, every other axis is kept
    scores = einops.einsum(q, k, "batch seq_q heads dim, batch seq_k heads dim -> batch heads seq_q seq_k")
    # 1/sqrt(dim) keeps the scores' spread ~1 whatever the head size (a dot of dim unit terms)
    return scores / math.sqrt(q.shape[-1])


def split_heads(
    x: Float[torch.Tensor, "batch seq model"], num_heads: int
) -> Float[torch.Tensor, "batch heads seq head_dim"]:
    if num_heads < 1 or x.shape[-1] % num_heads:
        raise ValueError(f"num_heads must be >= 1 and divide the model size {x.shape[-1]}, got {num_heads}")
    # the model axis is heads-major: head 0 owns the first head_dim features
    return einops.rearrange(x, "batch seq (heads head_dim) -> batch heads seq head_dim", heads=num_heads)


def merge_heads(
    x: Float[torch.Tensor, "batch heads seq head_dim"],
) -> Float[torch.Tensor, "batch seq model"]:
    # exactly the inverse pattern of split_heads, so merge_heads(split_heads(x, h)) == x
    return einops.rearrange(x, "batch heads seq head_dim -> batch seq (heads head_dim)")
