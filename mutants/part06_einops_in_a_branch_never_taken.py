"""split_heads names einops.rearrange only in a branch that never runs, and splits with view and
transpose: right values, and einops never used."""
TARGET = "named"

REPLACE = [
    ("""\
    return einops.rearrange(x, "batch seq (heads head_dim) -> batch heads seq head_dim", heads=num_heads)
""", """\
    if x.dim() < 0:
        return einops.rearrange(x, "batch seq (heads head_dim) -> batch heads seq head_dim", heads=num_heads)
    batch, seq, model = x.shape
    return x.view(batch, seq, num_heads, model // num_heads).transpose(1, 2)
"""),
]
