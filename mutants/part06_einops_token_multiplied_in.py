"""attention_scores computes the scores with a plain matmul and multiplies them by einops.einsum of two
ones: einops runs, and doubling its results doubles the answer, yet einops computes none of it."""
TARGET = "named"

REPLACE = [
    ('    scores = einops.einsum(q, k, "batch seq_q heads dim, batch seq_k heads dim -> batch heads seq_q seq_k")\n',
     '    one = torch.ones(1, dtype=q.dtype)\n'
     '    scores = (q.permute(0, 2, 1, 3) @ k.permute(0, 2, 3, 1)) * einops.einsum(one, one, "a, a -> a")\n'),
]
