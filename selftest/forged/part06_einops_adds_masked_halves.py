"""Each answer made with torch (matmul, reshape, permute), split into two masked halves, and added back up by one
einops.einsum over a stacked axis: the answer doubles with einops' results, is one of them, was handed to einops
in no step whole, and the scores' einsum is given two tensors. Only a call that doubles just the einops steps
handed the function's own inputs (q and k, x) tells: these steps are handed neither."""
TARGET = "named"

REPLACE = [
    ("""\
import math
""", """\
import math


def _through_einops(answer):
    flat = (torch.arange(answer.numel()) % 2).to(answer.dtype)
    mask = einops.rearrange(flat, "(a b) -> a b", a=1).reshape(answer.shape)
    halves = torch.stack([answer * mask, answer * (1 - mask)])
    return einops.einsum(halves, torch.ones(2, dtype=answer.dtype), "two ..., two -> ...")
"""),
    ("""\
    scores = einops.einsum(q, k, "batch seq_q heads dim, batch seq_k heads dim -> batch heads seq_q seq_k")
""", """\
    scores = _through_einops(q.permute(0, 2, 1, 3) @ k.permute(0, 2, 3, 1))
"""),
    ("""\
    return einops.rearrange(x, "batch seq (heads head_dim) -> batch heads seq head_dim", heads=num_heads)
""", """\
    b, s, m = x.shape
    return _through_einops(x.reshape(b, s, num_heads, m // num_heads).permute(0, 2, 1, 3).contiguous())
"""),
    ("""\
    return einops.rearrange(x, "batch heads seq head_dim -> batch seq (heads head_dim)")
""", """\
    b, h, s, d = x.shape
    return _through_einops(x.permute(0, 2, 1, 3).reshape(b, s, h * d))
"""),
]
