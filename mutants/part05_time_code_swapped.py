"""time_matmul as written reads a wall clock; at import its code is swapped (``__code__``) for that of
a function reading this process's CPU time."""
TARGET = "roofline"

APPEND = '''

def _cpu_timed(m, k, n, dtype, device, warmup=3, trials=10):
    a = torch.randn(m, k, dtype=dtype, device=device)
    b = torch.randn(k, n, dtype=dtype, device=device)
    for _ in range(warmup):
        a @ b
    start = time.process_time()
    for _ in range(trials):
        a @ b
    return (time.process_time() - start) / trials


time_matmul.__code__ = _cpu_timed.__code__
'''
