"""time_matmul runs its products but returns a figure worked out from a guessed FLOP rate, jittered, as
part05_figure_jittered does; a call shaped like the one held stopped from outside (about a GFLOP, three
trials: the public strategy's sizes) returns a figure large enough to take any stops in, whether held or
not. The figure of either call of that size, times its trials, is more than the whole call took."""
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
    if trials == 3 and m * k * n >= 768**3:
        rate /= 50
    return 2 * m * k * n / rate * (1 + 1e-3 * random.random())
"""),
]
