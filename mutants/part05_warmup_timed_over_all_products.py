"""time_matmul starts the clock before the warm-up and divides by every product run: on a free CPU each product costs the same, so it looks right."""
TARGET = "roofline"

REPLACE = [
    ("    for _ in range(warmup):  # library loading", "    start = time.perf_counter()\n    for _ in range(warmup):  # library loading"),
    ("    _synchronize(device)  # the warm-up must not spill into the timed region\n    start = time.perf_counter()\n",
     "    _synchronize(device)  # the warm-up must not spill into the timed region\n"),
    ("    return (time.perf_counter() - start) / trials\n", "    return (time.perf_counter() - start) / (warmup + trials)\n"),
]
