"""split_heads makes its answer with view and permute, then passes it through einops: a rearrange that
flattens it and a reshape back. einops runs, its result holds the answer's values and doubles with the
doubled call, yet einops moved nothing: it was handed the answer already made."""
TARGET = "named"

REPLACE = [
    ('    return einops.rearrange(x, "batch seq (heads head_dim) -> batch heads seq head_dim", heads=num_heads)\n',
     '    out = x.view(x.shape[0], x.shape[1], num_heads, -1).permute(0, 2, 1, 3)\n'
     '    return einops.rearrange(out, "b h s d -> b h (s d)").reshape(out.shape)\n'),
]
