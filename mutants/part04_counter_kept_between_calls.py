"""count_matmul_flops counts with one counter made when flops.py is imported, never reset: each call returns
the FLOPs of every call so far."""
TARGET = "flops"

REPLACE = [
    ("    counter = _MatmulCounter()\n    with counter:\n", "    counter = _COUNTER\n    with counter:\n"),
]
APPEND = "\n\n_COUNTER = _MatmulCounter()\n"
