"""get_batch draws distinct rows with rng.choice(..., replace=False), not rng.integers."""
TARGET = "training"

REPLACE = [
    ("rng.integers(0, len(data), size=batch_size)", "rng.choice(len(data), size=batch_size, replace=False)"),
]
