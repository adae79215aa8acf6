"""Part 5 reference: MFU and arithmetic intensity."""

from __future__ import annotations

import re
import time

import torch

# Dense peaks of the SXM parts, from the vendors' datasheets. float32 is the plain
# (non-tensor-core) rate; the sheets' headline tensor figures assume 2:4 sparsity
# and are halved here. The H200 has the H100's compute, with faster, larger memory.
_HOPPER = {
    torch.float32: 67e12,
    torch.bfloat16: 989.5e12,
    torch.float16: 989.5e12,
    torch.float8_e4m3fn: 1979e12,
}
PEAK_FLOPS_PER_SEC: dict[str, dict[torch.dtype, float]] = {
    "A100": {torch.float32: 19.5e12, torch.bfloat16: 312e12, torch.float16: 312e12},
    "H100": dict(_HOPPER),
    "H200": dict(_HOPPER),
}

HBM_BYTES_PER_SEC: dict[str, float] = {
    "A100": 2.039e12,  # 80 GB HBM2e
    "H100": 3.35e12,  # 80 GB HBM3
    "H200": 4.8e12,  # 141 GB HBM3e
}


def promised_flops_per_sec(device_name: str, dtype: torch.dtype) -> float:
    # whole tokens only: "NVIDIA GH200 480GB" is not an H200
    tokens = set(re.split(r"[^A-Za-z0-9]+", device_name.upper()))
    chips = [chip for chip in PEAK_FLOPS_PER_SEC if chip in tokens]
    if len(chips) != 1:
        raise ValueError(f"unknown device {device_name!r}; known: {', '.join(PEAK_FLOPS_PER_SEC)}")
    peaks = PEAK_FLOPS_PER_SEC[chips[0]]
    if dtype not in peaks:
        raise ValueError(f"no {dtype} peak for the {chips[0]}")
    return peaks[dtype]


def mfu(flops: float, seconds: float, peak_flops_per_sec: float) -> float:
    if flops < 0:
        raise ValueError(f"flops must be >= 0, got {flops}")
    if seconds <= 0 or peak_flops_per_sec <= 0:
        raise ValueError(f"seconds and peak_flops_per_sec must be > 0, got {seconds} and {peak_flops_per_sec}")
    return flops / seconds / peak_flops_per_sec


def matmul_arithmetic_intensity(b: int, d: int, f: int, bytes_per_element: float = 2) -> float:
    if min(b, d, f) < 1:
        raise ValueError(f"sizes must be >= 1, got {(b, d, f)}")
    if bytes_per_element <= 0:
        raise ValueError(f"bytes_per_element must be > 0, got {bytes_per_element}")
    # X [b, d] @ W [d, f]: read X and W once, write Y [b, f] once
    return 2 * b * d * f / (bytes_per_element * (b * d + d * f + b * f))


def _check_machine(peak: float, bytes_per_sec: float) -> None:
    if peak <= 0 or bytes_per_sec <= 0:
        raise ValueError(f"peak and bytes_per_sec must be > 0, got {peak} and {bytes_per_sec}")


def ridge_point(peak_flops_per_sec: float, bytes_per_sec: float) -> float:
    _check_machine(peak_flops_per_sec, bytes_per_sec)
    # the intensity at which moving the bytes takes exactly as long as the FLOPs
    return peak_flops_per_sec / bytes_per_sec


def attainable_flops_per_sec(intensity: float, peak: float, bytes_per_sec: float) -> float:
    _check_machine(peak, bytes_per_sec)
    if intensity < 0:
        raise ValueError(f"intensity must be >= 0, got {intensity}")
    return min(peak, intensity * bytes_per_sec)


def is_compute_bound(intensity: float, peak: float, bytes_per_sec: float) -> bool:
    _check_machine(peak, bytes_per_sec)
    if intensity < 0:
        raise ValueError(f"intensity must be >= 0, got {intensity}")
    return intensity >= peak / bytes_per_sec


def _synchronize(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def time_matmul(m: int, k: int, n: int, dtype: torch.dtype, device: str,
                warmup: int = 3, trials: int = 10) -> float:
    if min(m, k, n) < 1:
        raise ValueError(f"sizes must be >= 1, got {(m, k, n)}")
    if warmup < 0 or trials < 1:
        raise ValueError(f"need warmup >= 0 and trials >= 1, got {warmup} and {trials}")
    device = torch.device(device)
    a = torch.randn(m, k, dtype=dtype, device=device)  # random data: zeros run faster than real work
    b = torch.randn(k, n, dtype=dtype, device=device)
    for _ in range(warmup):  # library loading, kernel selection, caches
        a @ b
    _synchronize(device)  # the warm-up must not spill into the timed region
    start = time.perf_counter()
    for _ in range(trials):
        a @ b
    _synchronize(device)  # GPU kernels run asynchronously: wait before reading the clock
    return (time.perf_counter() - start) / trials


def measure_matmul_mfu(m: int, k: int, n: int, dtype: torch.dtype, device: str) -> float:
    device = torch.device(device)
    if device.type != "cuda":
        raise ValueError(f"MFU needs a CUDA device to look its peak up, got {device}")
    peak = promised_flops_per_sec(torch.cuda.get_device_name(device), dtype)
    seconds = time_matmul(m, k, n, dtype, device)
    return mfu(2 * m * k * n, seconds, peak)
