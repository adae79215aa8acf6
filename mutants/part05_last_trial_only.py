"""time_matmul keeps the last trial's time (elapsed = ..., not +=) and returns it as the mean: one product's time looks like an average."""
TARGET = "roofline"

REPLACE = [
    ("    start = time.perf_counter()\n    for _ in range(trials):\n        a @ b\n    _synchronize(device)  # GPU kernels run asynchronously: wait before reading the clock\n    return (time.perf_counter() - start) / trials\n",
     "    for _ in range(trials):\n        start = time.perf_counter()\n        a @ b\n        _synchronize(device)  # GPU kernels run asynchronously: wait before reading the clock\n        elapsed = time.perf_counter() - start\n    return elapsed\n"),
]
