"""split_heads groups the model axis as (head_dim heads): each head takes every h-th feature."""
TARGET = "named"


def split_heads(
    x: Float[torch.Tensor, "batch seq model"], num_heads: int
) -> Float[torch.Tensor, "batch heads seq head_dim"]:
    return einops.rearrange(x, "batch seq (head_dim heads) -> batch heads seq head_dim", heads=num_heads)
