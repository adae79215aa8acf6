"""time_matmul returns a figure worked out from a guessed FLOP rate, jittered, as part05_figure_jittered
does; a call shaped like the one held stopped from outside (about a GFLOP, one warm-up, three trials)
returns at once, before its first stop, with a figure small enough to fit in that call: never held, it
showed nothing of its clock, and used to pass as if it had taken the stops in."""
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
    ("""\
    device = torch.device(device)
    a = torch.randn(m, k, dtype=dtype, device=device)  # random data: zeros run faster than real work
""", """\
    if warmup == 1 and trials == 3 and m * k * n >= 768**3:
        import random

        return 1e-6 * (1 + random.random())
    device = torch.device(device)
    a = torch.randn(m, k, dtype=dtype, device=device)  # random data: zeros run faster than real work
"""),
]
