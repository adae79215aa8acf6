"""Lazy Part 6: the annotations kept, einops called, and every answer zero (the right shape, wrong)."""

import einops
import torch
from jaxtyping import Float


def attention_scores(
    q: Float[torch.Tensor, "batch seq_q heads dim"],
    k: Float[torch.Tensor, "batch seq_k heads dim"],
) -> Float[torch.Tensor, "batch heads seq_q seq_k"]:
    return einops.einsum(q, k, "batch seq_q heads dim, batch seq_k heads dim -> batch heads seq_q seq_k") * 0


def split_heads(
    x: Float[torch.Tensor, "batch seq model"], num_heads: int
) -> Float[torch.Tensor, "batch heads seq head_dim"]:
    return einops.rearrange(x, "batch seq (heads head_dim) -> batch heads seq head_dim", heads=num_heads) * 0


def merge_heads(
    x: Float[torch.Tensor, "batch heads seq head_dim"],
) -> Float[torch.Tensor, "batch seq model"]:
    return einops.rearrange(x, "batch heads seq head_dim -> batch seq (heads head_dim)") * 0
