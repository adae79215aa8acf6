"""attention_scores forgets the 1/sqrt(dim) scale."""
TARGET = "named"

REPLACE = [
    ("return scores / math.sqrt(q.shape[-1])", "return scores"),
]
