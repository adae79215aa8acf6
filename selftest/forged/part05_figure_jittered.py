"""time_matmul runs its warm-up and trial products (so every CPU check holds) but returns a figure worked
out from a guessed FLOP rate, jittered so that no two calls return the same digits; the clock is read
only in a branch that never runs. Held stopped from outside for most of a call, a measured figure
grows about fourfold; this one does not move."""
TARGET = "roofline"

REPLACE = [
    ("""\
    start = time.perf_counter()
    for _ in range(trials):
        a @ b
    _synchronize(device)  # GPU kernels run asynchronously: wait before reading the clock
    return (time.perf_counter() - start) / trials
""", """\
    import random

    for _ in range(trials):
        a @ b
    _synchronize(device)
    if trials < 0:
        time.perf_counter()
    rate = {torch.float32: 1.2e11, torch.float64: 4.5e10}.get(dtype, 3e10)
    return 2 * m * k * n / rate * (1 + 1e-3 * random.random())
"""),
]
