"""time_matmul returns the time of all the trials, not of one product."""
TARGET = "roofline"


def time_matmul(m, k, n, dtype, device, warmup=3, trials=10):
    device = torch.device(device)
    a = torch.randn(m, k, dtype=dtype, device=device)
    b = torch.randn(k, n, dtype=dtype, device=device)
    for _ in range(warmup):
        a @ b
    _synchronize(device)
    start = time.perf_counter()
    for _ in range(trials):
        a @ b
    _synchronize(device)
    return time.perf_counter() - start
