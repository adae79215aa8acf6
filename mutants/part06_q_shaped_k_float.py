"""attention_scores's q annotated Shaped, k still Float: q's dtype goes unchecked, so an integer q passes the
check beside a float k (a test that only ever sends q and k integer together is stopped by k alone)."""
TARGET = "named"

REPLACE = [
    ('    q: Float[torch.Tensor, "batch seq_q heads dim"],', '    q: Shaped[torch.Tensor, "batch seq_q heads dim"],'),
    ("from jaxtyping import Float", "from jaxtyping import Float, Shaped"),
]
