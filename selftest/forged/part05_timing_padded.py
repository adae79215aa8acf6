"""Burns a tenth of the CPU of every product it should have run, and pads the wall time, then
reports a figure it made up: the outside measurements look like a real call's, only cheaper.

What it burns is a tenth of what one real product costs on this machine (it times one to know),
so the forgery stays well under the test's floor (a third of the harness's cost) on any CPU: a
fixed guess of the machine's speed burnt 0.4 of a product on a fast one, where the floor is
not meant to see it."""
TARGET = "roofline"

import time as _time

import torch as _torch


def _burn(seconds):
    end = _time.process_time() + seconds
    while _time.process_time() < end:
        pass


def _one_product(m, k, n, dtype):
    a, b = _torch.randn(m, k, dtype=dtype), _torch.randn(k, n, dtype=dtype)
    costs = []
    for _ in range(3):
        start = _time.thread_time()
        a @ b
        costs.append(_time.thread_time() - start)
    return min(costs)


def time_matmul(m, k, n, dtype, device, warmup=3, trials=10):
    if min(m, k, n) < 1 or warmup < 0 or trials < 1:
        raise ValueError("bad sizes")
    cost = _one_product(m, k, n, dtype)
    _burn(0.1 * cost * (warmup + trials))
    guess = 2 * m * k * n / (5e10 if dtype == _torch.float32 else 2.5e10)  # "about 50 GFLOP/s"
    _time.sleep(guess * (warmup + trials))
    return guess
