"""attention_scores contracts q and k with torch.einsum, in another layout, and only moves the result into
place with a one-tensor einops.einsum: einops runs, its result is the answer and doubles with the doubled
call, yet the contraction the docstring asks of einops.einsum is torch's."""
TARGET = "named"

REPLACE = [
    ('    scores = einops.einsum(q, k, "batch seq_q heads dim, batch seq_k heads dim -> batch heads seq_q seq_k")\n',
     '    made = torch.einsum("bqhd,bkhd->bhkq", q, k)\n'
     '    scores = einops.einsum(made, "batch heads seq_k seq_q -> batch heads seq_q seq_k")\n'),
]
