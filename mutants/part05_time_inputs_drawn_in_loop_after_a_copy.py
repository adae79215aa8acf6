"""time_matmul draws fresh inputs inside each trial's clock, and copies a large tensor off the clock
between trials: what ran between the timed products counts for at most a share of a product."""
TARGET = "roofline"

REPLACE = [
    ("    start = time.perf_counter()\n    for _ in range(trials):\n        a @ b\n"
     "    _synchronize(device)  # GPU kernels run asynchronously: wait before reading the clock\n"
     "    return (time.perf_counter() - start) / trials\n",
     "    big, total = torch.randn(2000, 2000), 0.0\n    for _ in range(trials):\n        big.clone()\n"
     "        start = time.perf_counter()\n        a = torch.randn(m, k, dtype=dtype, device=device)\n"
     "        b = torch.randn(k, n, dtype=dtype, device=device)\n        a @ b\n"
     "        total += time.perf_counter() - start\n    return total / trials\n"),
]
