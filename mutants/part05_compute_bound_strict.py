"""is_compute_bound uses a strict >: an operation exactly at the ridge point is called memory-bound."""
TARGET = "roofline"


def is_compute_bound(intensity, peak, bytes_per_sec):
    return intensity > peak / bytes_per_sec
