"""time_matmul always times float32 products, whatever dtype it is asked for."""
TARGET = "roofline"

_time_matmul_any = time_matmul


def time_matmul(m, k, n, dtype, device, warmup=3, trials=10):
    return _time_matmul_any(m, k, n, torch.float32, device, warmup, trials)
