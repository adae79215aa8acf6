"""time_matmul draws fresh inputs inside the timed loop, after 40,000 cheap ops run before the clock
starts: ops outside the timed loop must buy no allowance for what the figure takes in."""
TARGET = "roofline"

REPLACE = [
    ("    start = time.perf_counter()\n    for _ in range(trials):\n        a @ b\n",
     "    scratch = torch.empty(4)\n    for _ in range(40000):\n        scratch.view(-1)\n"
     "    start = time.perf_counter()\n    for _ in range(trials):\n        a = torch.randn(m, k, dtype=dtype, device=device)\n"
     "        b = torch.randn(k, n, dtype=dtype, device=device)\n        a @ b\n"),
]
