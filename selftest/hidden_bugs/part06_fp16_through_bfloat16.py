"""attention_scores computes float16 inputs in bfloat16 (the same 16 bits, a wider range), then casts back.

8 significant bits instead of 11: an error the public float32 tests never meet."""
TARGET = "named"

REPLACE = [
    ("    scores = einops.einsum(q, k, \"batch seq_q heads dim, batch seq_k heads dim -> batch heads seq_q seq_k\")\n",
     "    half = q.dtype == torch.float16\n"
     "    q, k = (q.to(torch.bfloat16), k.to(torch.bfloat16)) if half else (q, k)\n"
     "    scores = einops.einsum(q, k, \"batch seq_q heads dim, batch seq_k heads dim -> batch heads seq_q seq_k\")\n"
     "    scores = scores.to(torch.float16) if half else scores\n"),
]
