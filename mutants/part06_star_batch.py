"""attention_scores annotated with "*batch" (any number of leading dims): 3-D q and k pass the check."""
TARGET = "named"

REPLACE = [
    ('    q: Float[torch.Tensor, "batch seq_q heads dim"],\n    k: Float[torch.Tensor, "batch seq_k heads dim"],\n'
     ') -> Float[torch.Tensor, "batch heads seq_q seq_k"]:',
     '    q: Float[torch.Tensor, "*batch seq_q heads dim"],\n    k: Float[torch.Tensor, "*batch seq_k heads dim"],\n'
     ') -> Float[torch.Tensor, "*batch heads seq_q seq_k"]:'),
    ('"batch seq_q heads dim, batch seq_k heads dim -> batch heads seq_q seq_k"',
     '"... seq_q heads dim, ... seq_k heads dim -> ... heads seq_q seq_k"'),
]
