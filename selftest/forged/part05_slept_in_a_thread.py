"""The slept-between-products forgery run in a thread the call starts and joins: a dispatch mode is the
thread's own, so the products are not seen from the call; they count as not run."""
TARGET = "roofline"

REPLACE = [
    ("""\
    device = torch.device(device)
    a = torch.randn(m, k, dtype=dtype, device=device)  # random data: zeros run faster than real work
    b = torch.randn(k, n, dtype=dtype, device=device)
    for _ in range(warmup):  # library loading, kernel selection, caches
        a @ b
    _synchronize(device)  # the warm-up must not spill into the timed region
    start = time.perf_counter()
    for _ in range(trials):
        a @ b
    _synchronize(device)  # GPU kernels run asynchronously: wait before reading the clock
    return (time.perf_counter() - start) / trials
""", """\
    import threading

    device = torch.device(device)
    figures = []

    def timed():
        a = torch.randn(m, k, dtype=dtype, device=device)
        b = torch.randn(k, n, dtype=dtype, device=device)
        for _ in range(warmup):
            a @ b
        _synchronize(device)
        start = time.perf_counter()
        for _ in range(trials):
            began = time.perf_counter()
            a @ b
            time.sleep(2 * (time.perf_counter() - began))
        _synchronize(device)
        figures.append((time.perf_counter() - start) / trials)

    thread = threading.Thread(target=timed)
    thread.start()
    thread.join()
    return figures[0]
"""),
]
