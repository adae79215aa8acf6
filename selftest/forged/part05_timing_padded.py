"""Burns CPU for every product it should have run, and pads the wall time, then reports a
figure it made up (no clock read): the outside measurements look like a real call's."""
TARGET = "roofline"

import time as _time

import torch as _torch


def _burn(seconds):
    end = _time.process_time() + seconds
    while _time.process_time() < end:
        pass


def time_matmul(m, k, n, dtype, device, warmup=3, trials=10):
    if min(m, k, n) < 1 or warmup < 0 or trials < 1:
        raise ValueError("bad sizes")
    guess = 2 * m * k * n / (5e10 if dtype == _torch.float32 else 2.5e10)  # "about 50 GFLOP/s"
    _burn(guess * (warmup + trials) * 0.2)
    _time.sleep(guess * (warmup + trials))
    return guess
