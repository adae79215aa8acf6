"""attention_scores contracts q and k with torch.matmul, in another layout, and moves the result into place
with an einops.einsum given a second tensor of one 1: einops is given two tensors and its result doubles with
the doubled call, yet the scores were made before it, laid out otherwise."""
TARGET = "named"

REPLACE = [
    ('    scores = einops.einsum(q, k, "batch seq_q heads dim, batch seq_k heads dim -> batch heads seq_q seq_k")\n',
     '    made = torch.matmul(k.permute(0, 2, 1, 3), q.permute(0, 2, 3, 1))\n'
     '    scores = einops.einsum(made, q.new_ones(1), "batch heads seq_k seq_q, one -> batch heads seq_q seq_k")\n'),
]
