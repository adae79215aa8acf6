"""Part 5: MFU and arithmetic intensity."""

from __future__ import annotations

import time

import torch

# from the NVIDIA datasheets (SXM)
PEAK_FLOPS_PER_SEC: dict[str, dict[torch.dtype, float]] = {
    "A100": {
        torch.float32: 19.5e12,
        torch.bfloat16: 312e12,
        torch.float16: 312e12,
    },
    "H100": {
        torch.float32: 67e12,
        torch.bfloat16: 1979e12,
        torch.float16: 1979e12,
        torch.float8_e4m3fn: 3958e12,
    },
    "H200": {
        torch.float32: 67e12,
        torch.bfloat16: 1979e12,
        torch.float16: 1979e12,
        torch.float8_e4m3fn: 3958e12,
    },
}

HBM_BYTES_PER_SEC: dict[str, float] = {
    "A100": 2.039e12,
    "H100": 3.35e12,
    "H200": 4.8e12,
}


def promised_flops_per_sec(device_name: str, dtype: torch.dtype) -> float:
    words = device_name.replace("-", " ").split()
    chips = [w for w in words if w in PEAK_FLOPS_PER_SEC]
    if not chips:
        raise ValueError(f"unknown device {device_name!r}")
    table = PEAK_FLOPS_PER_SEC[chips[0]]
    if dtype not in table:
        raise ValueError(f"{chips[0]} has no peak for {dtype}")
    return table[dtype]


def mfu(flops: float, seconds: float, peak_flops_per_sec: float) -> float:
    if flops < 0 or seconds <= 0 or peak_flops_per_sec <= 0:
        raise ValueError("need flops >= 0, seconds > 0 and peak > 0")
    return flops / seconds / peak_flops_per_sec


def matmul_arithmetic_intensity(b: int, d: int, f: int, bytes_per_element: float = 2) -> float:
    if min(b, d, f) < 1 or bytes_per_element <= 0:
        raise ValueError("sizes must be >= 1 and bytes_per_element > 0")
    return 2 * b * d * f / (bytes_per_element * (b * d + d * f + b * f))


def ridge_point(peak_flops_per_sec: float, bytes_per_sec: float) -> float:
    if peak_flops_per_sec <= 0 or bytes_per_sec <= 0:
        raise ValueError("peak and bandwidth must be positive")
    return peak_flops_per_sec / bytes_per_sec


def attainable_flops_per_sec(intensity: float, peak: float, bytes_per_sec: float) -> float:
    if intensity < 0 or peak <= 0 or bytes_per_sec <= 0:
        raise ValueError("bad roofline arguments")
    return min(peak, intensity * bytes_per_sec)


def is_compute_bound(intensity: float, peak: float, bytes_per_sec: float) -> bool:
    if intensity < 0:
        raise ValueError("intensity must be >= 0")
    return intensity >= ridge_point(peak, bytes_per_sec)


def _sync(device):
    if torch.device(device).type == "cuda":
        torch.cuda.synchronize(device)


def time_matmul(m: int, k: int, n: int, dtype: torch.dtype, device: str,
                warmup: int = 3, trials: int = 10) -> float:
    if min(m, k, n) < 1 or warmup < 0 or trials < 1:
        raise ValueError("sizes and trials must be >= 1, warmup >= 0")
    a = torch.randn(m, k, device=device).to(dtype)
    b = torch.randn(k, n, device=device).to(dtype)
    for _ in range(warmup):
        a @ b
    _sync(device)
    t0 = time.perf_counter()
    for _ in range(trials):
        a @ b
    _sync(device)
    return (time.perf_counter() - t0) / trials


def measure_matmul_mfu(m: int, k: int, n: int, dtype: torch.dtype, device: str) -> float:
    if torch.device(device).type != "cuda":
        raise ValueError("MFU needs a CUDA device")
    peak = promised_flops_per_sec(torch.cuda.get_device_name(device), dtype)
    return mfu(2 * m * k * n, time_matmul(m, k, n, dtype, device), peak)
