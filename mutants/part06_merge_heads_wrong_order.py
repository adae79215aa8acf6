"""merge_heads groups (head_dim heads), so it does not invert split_heads."""
TARGET = "named"


def merge_heads(
    x: Float[torch.Tensor, "batch heads seq head_dim"],
) -> Float[torch.Tensor, "batch seq model"]:
    return einops.rearrange(x, "batch heads seq head_dim -> batch seq (head_dim heads)")
