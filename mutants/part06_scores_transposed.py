"""attention_scores puts seq_k before seq_q in the output (k·qᵀ instead of q·kᵀ)."""
TARGET = "named"


def attention_scores(
    q: Float[torch.Tensor, "batch seq_q heads dim"],
    k: Float[torch.Tensor, "batch seq_k heads dim"],
) -> Float[torch.Tensor, "batch heads seq_q seq_k"]:
    scores = einops.einsum(q, k, "batch seq_q heads dim, batch seq_k heads dim -> batch heads seq_k seq_q")
    return scores / math.sqrt(q.shape[-1])
