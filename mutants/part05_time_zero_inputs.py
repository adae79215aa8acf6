"""time_matmul multiplies zeros instead of random inputs (the stub warns: some hardware runs them faster
than real data); on the CPU the time is the same, so no clock shows it."""
TARGET = "roofline"

REPLACE = [
    ("    a = torch.randn(m, k, dtype=dtype, device=device)", "    a = torch.zeros(m, k, dtype=dtype, device=device)"),
    ("    b = torch.randn(k, n, dtype=dtype, device=device)\n", "    b = torch.zeros(k, n, dtype=dtype, device=device)\n"),
]
