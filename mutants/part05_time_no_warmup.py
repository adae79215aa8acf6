"""time_matmul ignores warmup: the first, slow products land in the timing."""
TARGET = "roofline"

REPLACE = [
    ("""\
    for _ in range(warmup):  # library loading, kernel selection, caches
        a @ b
""", ""),
]
