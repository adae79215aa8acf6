"""time_matmul always times float32 products, whatever dtype it is asked for."""
TARGET = "roofline"

REPLACE = [
    ("torch.randn(m, k, dtype=dtype,", "torch.randn(m, k, dtype=torch.float32,"),
    ("torch.randn(k, n, dtype=dtype,", "torch.randn(k, n, dtype=torch.float32,"),
]
