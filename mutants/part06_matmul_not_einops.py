"""attention_scores uses permute and torch.matmul instead of einops.einsum (right values)."""
TARGET = "named"


def attention_scores(
    q: Float[torch.Tensor, "batch seq_q heads dim"],
    k: Float[torch.Tensor, "batch seq_k heads dim"],
) -> Float[torch.Tensor, "batch heads seq_q seq_k"]:
    # [batch heads seq_q dim] @ [batch heads dim seq_k]
    return torch.matmul(q.permute(0, 2, 1, 3), k.permute(0, 2, 3, 1)) / math.sqrt(q.shape[-1])
