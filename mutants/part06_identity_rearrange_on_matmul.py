"""attention_scores computes the scores with a plain matmul, names einops.einsum only in a branch that
never runs, and passes the answer through an identity rearrange: einops runs and its result is the
answer, yet einops computes none of it."""
TARGET = "named"

REPLACE = [
    ('    scores = einops.einsum(q, k, "batch seq_q heads dim, batch seq_k heads dim -> batch heads seq_q seq_k")\n',
     '    if q.shape[0] < 0:\n'
     '        scores = einops.einsum(q, k, "batch seq_q heads dim, batch seq_k heads dim -> batch heads seq_q seq_k")\n'
     '    scores = einops.rearrange(q.permute(0, 2, 1, 3) @ k.permute(0, 2, 3, 1), "b h s t -> b h s t")\n'),
]
