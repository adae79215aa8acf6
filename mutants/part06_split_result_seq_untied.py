"""split_heads' result is annotated with a sequence axis of its own name (seq2): nothing ties it to x's."""
TARGET = "named"

REPLACE = [
    (') -> Float[torch.Tensor, "batch heads seq head_dim"]:', ') -> Float[torch.Tensor, "batch heads seq2 head_dim"]:'),
]
