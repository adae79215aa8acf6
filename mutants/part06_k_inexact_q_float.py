"""attention_scores's k annotated Inexact, q still Float: a complex k passes the check beside a float q."""
TARGET = "named"

REPLACE = [
    ('    k: Float[torch.Tensor, "batch seq_k heads dim"],', '    k: Inexact[torch.Tensor, "batch seq_k heads dim"],'),
    ("from jaxtyping import Float", "from jaxtyping import Float, Inexact"),
]
