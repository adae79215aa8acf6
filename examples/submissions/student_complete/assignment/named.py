"""Part 6 — einops and jaxtyping.

Dims get names instead of positions: ``einsum`` and ``rearrange`` patterns say
what is contracted and what is split, and the jaxtyping annotations say (and,
with the decorator, check at call time) which shape goes in and comes out.
"""

import math

import torch
from typeguard import typechecked
from einops import einsum, rearrange
from jaxtyping import Float, jaxtyped


@jaxtyped(typechecker=typechecked)
def attention_scores(
    q: Float[torch.Tensor, "batch seq_q heads dim"],
    k: Float[torch.Tensor, "batch seq_k heads dim"],
) -> Float[torch.Tensor, "batch heads seq_q seq_k"]:
    """Scaled dot products ``q . k / sqrt(dim)`` for every query/key pair of every head."""
    dim = q.shape[-1]
    scores = einsum(q, k, "batch seq_q heads dim, batch seq_k heads dim -> batch heads seq_q seq_k")
    return scores / math.sqrt(dim)


@jaxtyped(typechecker=typechecked)
def split_heads(
    x: Float[torch.Tensor, "batch seq model"],
    num_heads: int,
) -> Float[torch.Tensor, "batch heads seq head_dim"]:
    """[batch, seq, heads * head_dim] -> [batch, heads, seq, head_dim]."""
    model_dim = x.shape[-1]
    if num_heads < 1:
        raise ValueError(f"num_heads must be >= 1, got {num_heads}")
    if model_dim % num_heads != 0:
        raise ValueError(f"model dim {model_dim} is not divisible by num_heads={num_heads}")
    return rearrange(x, "batch seq (heads head_dim) -> batch heads seq head_dim", heads=num_heads)


@jaxtyped(typechecker=typechecked)
def merge_heads(
    x: Float[torch.Tensor, "batch heads seq head_dim"],
) -> Float[torch.Tensor, "batch seq model"]:
    """Inverse of ``split_heads``: [batch, heads, seq, head_dim] -> [batch, seq, heads * head_dim]."""
    return rearrange(x, "batch heads seq head_dim -> batch seq (heads head_dim)")
