"""time_matmul makes b of shape (k, m): it times [m, k] @ [k, m], right only where m == n."""
TARGET = "roofline"

REPLACE = [
    ("    b = torch.randn(k, n, dtype=dtype, device=device)", "    b = torch.randn(k, m, dtype=dtype, device=device)"),
]
