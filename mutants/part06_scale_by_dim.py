"""attention_scores divides by dim instead of sqrt(dim)."""
TARGET = "named"

REPLACE = [
    ("scores / math.sqrt(q.shape[-1])", "scores / q.shape[-1]"),
]
