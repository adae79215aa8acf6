"""time_matmul draws fresh inputs for every timed product, inside the timed loop: the figure takes the
drawing in (for a thin product, several times the product itself)."""
TARGET = "roofline"

REPLACE = [
    ("    for _ in range(trials):\n        a @ b\n",
     "    for _ in range(trials):\n        a = torch.randn(m, k, dtype=dtype, device=device)\n"
     "        b = torch.randn(k, n, dtype=dtype, device=device)\n        a @ b\n"),
]
