"""attention_scores is made with permute and matmul, and an einops.einsum of a zero token is added to
it: right values, the einops call runs and its result reaches the answer, yet einops makes none of it."""
TARGET = "named"

REPLACE = [
    ("""\
    scores = einops.einsum(q, k, "batch seq_q heads dim, batch seq_k heads dim -> batch heads seq_q seq_k")
""", """\
    token = q.new_zeros(1, 1, 1, 1)
    scores = q.permute(0, 2, 1, 3) @ k.permute(0, 2, 3, 1)
    scores = scores + einops.einsum(token, token, "a b c d, a b c d -> a b c d")
"""),
]
