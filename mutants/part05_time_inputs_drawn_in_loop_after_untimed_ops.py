"""time_matmul draws fresh inputs inside the timed loop, after 10,000 cheap ops run before the clock
starts: ops outside the timed loop must buy no allowance for what the figure takes in. (A red team's
used 40,000; the check it beat, where every op of the call bought allowance, let 2,500 through already,
and each op costs the watched grading time: 40,000 took 22 s of test_time_matmul_cpu, 10,000 12 s.)"""
TARGET = "roofline"

REPLACE = [
    ("    start = time.perf_counter()\n    for _ in range(trials):\n        a @ b\n",
     "    scratch = torch.empty(4)\n    for _ in range(10000):\n        scratch.view(-1)\n"
     "    start = time.perf_counter()\n    for _ in range(trials):\n        a = torch.randn(m, k, dtype=dtype, device=device)\n"
     "        b = torch.randn(k, n, dtype=dtype, device=device)\n        a @ b\n"),
]
