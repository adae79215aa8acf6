"""attention_scores sums bfloat16 products in float16 ("11 significant bits, not 8") and casts back: right
while every value fits float16, inf once a score passes 65504 (bfloat16 reaches 3e38)."""
TARGET = "named"

REPLACE = [
    ("    scores = einops.einsum(q, k, \"batch seq_q heads dim, batch seq_k heads dim -> batch heads seq_q seq_k\")\n",
     "    low = q.dtype == torch.bfloat16\n"
     "    q, k = (q.to(torch.float16), k.to(torch.float16)) if low else (q, k)\n"
     "    scores = einops.einsum(q, k, \"batch seq_q heads dim, batch seq_k heads dim -> batch heads seq_q seq_k\")\n"
     "    scores = scores.to(torch.bfloat16) if low else scores\n"),
]
