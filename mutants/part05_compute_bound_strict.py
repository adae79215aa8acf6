"""is_compute_bound uses a strict >: an operation exactly at the ridge point is called memory-bound."""
TARGET = "roofline"

REPLACE = [
    ("intensity >= peak / bytes_per_sec", "intensity > peak / bytes_per_sec"),
]
