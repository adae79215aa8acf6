"""get_batch takes the first batch_size rows of rng.permutation(len(data))."""
TARGET = "training"

REPLACE = [
    ("rng.integers(0, len(data), size=batch_size)", "rng.permutation(len(data))[:batch_size]"),
]
