"""time_matmul runs its products but returns a figure worked out from a guessed FLOP rate: the clock is
only read in a branch that never runs."""
TARGET = "roofline"

REPLACE = [
    ("""\
    start = time.perf_counter()
    for _ in range(trials):
        a @ b
    _synchronize(device)  # GPU kernels run asynchronously: wait before reading the clock
    return (time.perf_counter() - start) / trials
""", """\
    for _ in range(trials):
        a @ b
    _synchronize(device)
    if trials < 0:
        time.perf_counter()
    return 2 * m * k * n / {torch.float32: 1.4e11, torch.float64: 5.5e10}.get(dtype, 3e10) + 1e-5
"""),
]
