"""The jaxtyping annotations are deleted: right values, but nothing checks the shapes."""
TARGET = "named"


def attention_scores(q, k):
    scores = einops.einsum(q, k, "batch seq_q heads dim, batch seq_k heads dim -> batch heads seq_q seq_k")
    return scores / math.sqrt(q.shape[-1])


def split_heads(x, num_heads):
    return einops.rearrange(x, "batch seq (heads head_dim) -> batch heads seq head_dim", heads=num_heads)


def merge_heads(x):
    return einops.rearrange(x, "batch heads seq head_dim -> batch seq (heads head_dim)")
