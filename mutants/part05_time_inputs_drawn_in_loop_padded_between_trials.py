"""time_matmul draws fresh inputs inside each trial's clock, and runs 3,000 cheap ops off the clock
between trials: what ran between the timed products counts for at most OPS_PER_TRIAL ops a trial."""
TARGET = "roofline"

REPLACE = [
    ("    start = time.perf_counter()\n    for _ in range(trials):\n        a @ b\n"
     "    _synchronize(device)  # GPU kernels run asynchronously: wait before reading the clock\n"
     "    return (time.perf_counter() - start) / trials\n",
     "    scratch, total = torch.empty(4), 0.0\n    for _ in range(trials):\n"
     "        for _ in range(3000):\n            scratch.view(-1)\n"
     "        start = time.perf_counter()\n        a = torch.randn(m, k, dtype=dtype, device=device)\n"
     "        b = torch.randn(k, n, dtype=dtype, device=device)\n        a @ b\n"
     "        total += time.perf_counter() - start\n    return total / trials\n"),
]
