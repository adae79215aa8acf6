"""time_matmul draws its inputs inside the timed loop on every other call (a counter kept in the module): a
watched round that fails is followed by one that passes, and the least or the median of the figures timed
from outside, half of them honest, pass too. An honest timer draws as often between its products in every
call asked the same."""
TARGET = "roofline"

REPLACE = [
    ("    start = time.perf_counter()\n    for _ in range(trials):\n        a @ b\n",
     "    _CALLS.append(1)\n    start = time.perf_counter()\n    for _ in range(trials):\n"
     "        if len(_CALLS) % 2:\n            a = torch.randn(m, k, dtype=dtype, device=device)\n"
     "            b = torch.randn(k, n, dtype=dtype, device=device)\n        a @ b\n"),
    ("def time_matmul(", "_CALLS = []\n\n\ndef time_matmul("),
]
