"""attention_scores annotates k with axes of its own names: right values, but a k whose heads or head
dim differ from q's passes the annotations."""
TARGET = "named"

REPLACE = [
    ('    k: Float[torch.Tensor, "batch seq_k heads dim"],', '    k: Float[torch.Tensor, "batch seq_k kv_heads head_dim"],'),
]
