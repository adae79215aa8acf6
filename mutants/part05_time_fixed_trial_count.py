"""time_matmul ignores `trials` and always times ten products: the figure is one product's time, but not
measured as asked."""
TARGET = "roofline"

REPLACE = [
    ("""\
    for _ in range(trials):
        a @ b
    _synchronize(device)  # GPU kernels run asynchronously: wait before reading the clock
    return (time.perf_counter() - start) / trials
""", """\
    for _ in range(10):
        a @ b
    _synchronize(device)  # GPU kernels run asynchronously: wait before reading the clock
    return (time.perf_counter() - start) / 10
"""),
]
