"""attention_scores annotated with Inexact instead of Float: complex q and k pass the check."""
TARGET = "named"

REPLACE = [
    ('    q: Float[torch.Tensor, "batch seq_q heads dim"],\n    k: Float[torch.Tensor, "batch seq_k heads dim"],',
     '    q: Inexact[torch.Tensor, "batch seq_q heads dim"],\n    k: Inexact[torch.Tensor, "batch seq_k heads dim"],'),
    ("from jaxtyping import Float", "from jaxtyping import Float, Inexact"),
]
