"""time_matmul times each trial on its own and returns their median, not their mean: the slow trial is left out
(the docstring asks for the average). Caught where the watch slows the first timed product: the figure falls
under the mean of the timed products and the watch's checks of them, which a clock around the loop takes in."""
TARGET = "roofline"

REPLACE = [
    ("""\
    start = time.perf_counter()
    for _ in range(trials):
        a @ b
    _synchronize(device)  # GPU kernels run asynchronously: wait before reading the clock
    return (time.perf_counter() - start) / trials
""", """\
    times = []
    for _ in range(trials):
        start = time.perf_counter()
        a @ b
        _synchronize(device)  # GPU kernels run asynchronously: wait before reading the clock
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]
"""),
]
