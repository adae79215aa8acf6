"""The scores made with torch's matmul, then added back up from two masked halves by an einops.einsum that also
multiplies in a factor of 1 einops made of q's and k's own values (their largest, reduced by einops, over the same
taken by torch): with only the steps handed q and k doubled, the factor is 2 and the answer doubles. Only the
answer's own values tell: no result of a step handed q and k holds them."""
TARGET = "named"

REPLACE = [
    ("""\
    scores = einops.einsum(q, k, "batch seq_q heads dim, batch seq_k heads dim -> batch heads seq_q seq_k")
""", """\
    made = torch.matmul(q.permute(0, 2, 1, 3), k.permute(0, 2, 3, 1))
    both = torch.cat([q.reshape(-1), k.reshape(-1)]).abs()
    factor = (einops.reduce(both, "n -> ", "max") / both.max()).expand(made.shape)
    mask = (torch.arange(made.numel()).reshape(made.shape) % 2) == 0
    halves = torch.stack([torch.where(mask, made, torch.zeros_like(made)), torch.where(mask, torch.zeros_like(made), made)])
    scores = einops.einsum(halves, factor, "two b h i j, b h i j -> b h i j")
"""),
]
