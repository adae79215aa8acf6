"""time_matmul starts its clock before the warm-up: the warm-up products land in the figure, which
still fits in the call's wall time."""
TARGET = "roofline"

REPLACE = [
    ("""\
    for _ in range(warmup):  # library loading, kernel selection, caches
        a @ b
    _synchronize(device)  # the warm-up must not spill into the timed region
    start = time.perf_counter()
""", """\
    start = time.perf_counter()
    for _ in range(warmup):  # library loading, kernel selection, caches
        a @ b
    _synchronize(device)
"""),
]
