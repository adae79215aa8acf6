"""attention_scores divides by torch.sqrt(torch.tensor(dim)), a float32 tensor: right in float32, rounded in float64
(the public float64 example, with the hint for it)."""
TARGET = "named"
REPLACE = [
    ("return scores / math.sqrt(q.shape[-1])", "return scores / torch.sqrt(torch.tensor(q.shape[-1]))"),
]
