"""attention_scores' result annotated with a batch axis of its own name ("b"): a result of another batch
size than q's passes its check."""
TARGET = "named"

REPLACE = [
    (') -> Float[torch.Tensor, "batch heads seq_q seq_k"]:', ') -> Float[torch.Tensor, "b heads seq_q seq_k"]:'),
]
