"""merge_heads calls einops.rearrange on an empty slice and throws the result away, then merges with
transpose and reshape: right values, and einops makes none of them."""
TARGET = "named"

REPLACE = [
    ("""\
    return einops.rearrange(x, "batch heads seq head_dim -> batch seq (heads head_dim)")
""", """\
    einops.rearrange(x[:0], "batch heads seq head_dim -> batch seq (heads head_dim)")
    batch, heads, seq, head_dim = x.shape
    return x.transpose(1, 2).reshape(batch, seq, heads * head_dim)
"""),
]
