"""attention_scores divides by dim instead of sqrt(dim)."""
TARGET = "named"


def attention_scores(
    q: Float[torch.Tensor, "batch seq_q heads dim"],
    k: Float[torch.Tensor, "batch seq_k heads dim"],
) -> Float[torch.Tensor, "batch heads seq_q seq_k"]:
    scores = einops.einsum(q, k, "batch seq_q heads dim, batch seq_k heads dim -> batch heads seq_q seq_k")
    return scores / q.shape[-1]
