"""time_matmul as written reads a wall clock; import-time code puts one that reads this process's CPU
time in its place through setattr on the module itself, where a reading of time_matmul never looks."""
TARGET = "roofline"

APPEND = '''

import sys as _sys


def _cpu_timed(m, k, n, dtype, device, warmup=3, trials=10):
    a = torch.randn(m, k, dtype=dtype, device=device)
    b = torch.randn(k, n, dtype=dtype, device=device)
    for _ in range(warmup):
        a @ b
    start = time.process_time()
    for _ in range(trials):
        a @ b
    return (time.process_time() - start) / trials


setattr(_sys.modules[__name__], "time_matmul", _cpu_timed)
'''
