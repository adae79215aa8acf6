"""The memory ledger's bytes per element from torch.finfo's bits: right for the floats, a TypeError for
ints and bool, and half a complex64's 8 bytes (finfo of a complex type is its real part's)."""
TARGET = "memory"

REPLACE = [
    ("    return dtype.itemsize", "    return torch.finfo(dtype).bits // 8"),
]
