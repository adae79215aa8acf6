"""Lazy Part 5: every answer has the right type and shape, and is wrong."""

import time

import torch

_DTYPES = (torch.float32, torch.bfloat16, torch.float16, torch.float8_e4m3fn)
PEAK_FLOPS_PER_SEC = {chip: {dtype: 1.0 for dtype in _DTYPES} for chip in ("A100", "H100", "H200")}
HBM_BYTES_PER_SEC = {chip: 1.0 for chip in ("A100", "H100", "H200")}


def promised_flops_per_sec(device_name, dtype):
    return 1.0


def mfu(flops, seconds, peak_flops_per_sec):
    return -1.0


def matmul_arithmetic_intensity(b, d, f, bytes_per_element=2):
    return -1.0


def ridge_point(peak_flops_per_sec, bytes_per_sec):
    return -1.0


def attainable_flops_per_sec(intensity, peak, bytes_per_sec):
    return -1.0


def is_compute_bound(intensity, peak, bytes_per_sec):
    return False


def time_matmul(m, k, n, dtype, device, warmup=3, trials=10):
    time.sleep(0.001)
    return 1.0


def measure_matmul_mfu(m, k, n, dtype, device):
    return 1.5
