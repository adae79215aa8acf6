"""attention_scores uses permute and torch.matmul instead of einops.einsum (right values)."""
TARGET = "named"

REPLACE = [
    ('einops.einsum(q, k, "batch seq_q heads dim, batch seq_k heads dim -> batch heads seq_q seq_k")',
     "torch.matmul(q.permute(0, 2, 1, 3), k.permute(0, 2, 3, 1))"),
]
