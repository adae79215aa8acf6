"""Part 5 — MFU and arithmetic intensity.

MFU says how far a workload is from the hardware's peak; arithmetic intensity
(FLOPs per byte of HBM traffic) against the ridge point ``peak / bandwidth``
says whether compute or memory is the wall it is running into.
"""

from __future__ import annotations

import re
import time

import torch

from .flops import matmul_flops

# Dense peaks of the SXM parts, FLOP/s. The sheets print tensor-core figures
# "with sparsity" (2:4 structured): the dense rate is half of those.
#   A100 SXM: FP32 19.5 T; BF16/FP16 tensor cores 312 T dense (624 T sparse); no FP8.
#   H100 SXM: FP32 67 T; BF16/FP16 1979 T sparse -> 989.5 T dense; FP8 3958 T sparse -> 1979 T.
#   H200 SXM: the same GH100 compute as the H100, with more and faster HBM.
_HOPPER_PEAKS: dict[torch.dtype, float] = {
    torch.float32: 67e12,
    torch.bfloat16: 1979e12 / 2,
    torch.float16: 1979e12 / 2,
    torch.float8_e4m3fn: 3958e12 / 2,
    torch.float8_e5m2: 3958e12 / 2,
}

PEAK_FLOPS_PER_SEC: dict[str, dict[torch.dtype, float]] = {
    "A100": {
        torch.float32: 19.5e12,
        torch.bfloat16: 312e12,
        torch.float16: 312e12,
    },
    "H100": dict(_HOPPER_PEAKS),
    "H200": dict(_HOPPER_PEAKS),
}

# HBM bandwidth, bytes/s: A100 80 GB SXM (HBM2e), H100 SXM (HBM3), H200 (HBM3e).
HBM_BYTES_PER_SEC: dict[str, float] = {
    "A100": 2.039e12,
    "H100": 3.35e12,
    "H200": 4.8e12,
}


def _chip_of(device_name: str) -> str:
    """The table key named by a ``torch.cuda.get_device_name()`` string, matched as a whole word."""
    if not isinstance(device_name, str):
        raise ValueError(f"device name must be a string, got {device_name!r}")
    for word in re.split(r"[\s\-]+", device_name.strip()):
        if word.upper() in PEAK_FLOPS_PER_SEC:
            return word.upper()
    raise ValueError(
        f"unknown device {device_name!r}: no word of it is one of {sorted(PEAK_FLOPS_PER_SEC)}"
    )


def promised_flops_per_sec(device_name: str, dtype: torch.dtype) -> float:
    """Dense peak FLOP/s of the chip named in ``device_name`` for ``dtype``."""
    chip = _chip_of(device_name)
    peaks = PEAK_FLOPS_PER_SEC[chip]
    if dtype not in peaks:
        raise ValueError(f"no peak for {dtype} on {chip}; known dtypes: {list(peaks)}")
    return peaks[dtype]


def mfu(flops: float, seconds: float, peak_flops_per_sec: float) -> float:
    """Achieved FLOP/s over peak FLOP/s."""
    if flops < 0:
        raise ValueError(f"flops must be >= 0, got {flops}")
    if seconds <= 0:
        raise ValueError(f"seconds must be > 0, got {seconds}")
    if peak_flops_per_sec <= 0:
        raise ValueError(f"peak_flops_per_sec must be > 0, got {peak_flops_per_sec}")
    return (flops / seconds) / peak_flops_per_sec


def matmul_arithmetic_intensity(b: int, d: int, f: int, bytes_per_element: float = 2) -> float:
    """FLOPs per HBM byte of X[b, d] @ W[d, f]: read X and W once, write Y once."""
    for name, value in (("b", b), ("d", d), ("f", f)):
        if value < 1:
            raise ValueError(f"{name} must be >= 1, got {value}")
    if bytes_per_element <= 0:
        raise ValueError(f"bytes_per_element must be > 0, got {bytes_per_element}")
    flops = 2 * b * d * f
    bytes_moved = bytes_per_element * (b * d + d * f + b * f)
    return flops / bytes_moved


def _check_roof(peak: float, bytes_per_sec: float) -> None:
    if peak <= 0:
        raise ValueError(f"peak FLOP/s must be > 0, got {peak}")
    if bytes_per_sec <= 0:
        raise ValueError(f"bandwidth must be > 0, got {bytes_per_sec}")


def ridge_point(peak_flops_per_sec: float, bytes_per_sec: float) -> float:
    """Intensity at which compute time equals memory time: ``peak / bandwidth``."""
    _check_roof(peak_flops_per_sec, bytes_per_sec)
    return peak_flops_per_sec / bytes_per_sec


def attainable_flops_per_sec(intensity: float, peak: float, bytes_per_sec: float) -> float:
    """The roofline ``min(peak, intensity * bandwidth)``."""
    _check_roof(peak, bytes_per_sec)
    if intensity < 0:
        raise ValueError(f"intensity must be >= 0, got {intensity}")
    return min(peak, intensity * bytes_per_sec)


def is_compute_bound(intensity: float, peak: float, bytes_per_sec: float) -> bool:
    """At or beyond the ridge point the compute units, not HBM, set the speed.

    Exactly at the ridge both limits are equal; that counts as compute-bound.
    """
    _check_roof(peak, bytes_per_sec)
    if intensity < 0:
        raise ValueError(f"intensity must be >= 0, got {intensity}")
    return intensity >= ridge_point(peak, bytes_per_sec)


def _synchronize(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    elif device.type == "mps":
        torch.mps.synchronize()


def _random_matrix(rows: int, cols: int, dtype: torch.dtype, device: torch.device) -> torch.Tensor:
    # randn cannot produce every dtype directly (float8, ints): draw float32 and cast.
    try:
        return torch.randn(rows, cols, dtype=dtype, device=device)
    except (RuntimeError, TypeError, NotImplementedError):
        return torch.randn(rows, cols, device=device).to(dtype)


def time_matmul(m: int, k: int, n: int, dtype: torch.dtype, device: str,
                warmup: int = 3, trials: int = 10) -> float:
    """Average seconds of one ``a @ b`` (a [m, k], b [k, n]) after ``warmup`` untimed runs."""
    for name, value in (("m", m), ("k", k), ("n", n)):
        if value < 1:
            raise ValueError(f"{name} must be >= 1, got {value}")
    if warmup < 0:
        raise ValueError(f"warmup must be >= 0, got {warmup}")
    if trials < 1:
        raise ValueError(f"trials must be >= 1, got {trials}")
    dev = torch.device(device)

    a = _random_matrix(m, k, dtype, dev)
    b = _random_matrix(k, n, dtype, dev)

    for _ in range(warmup):
        a @ b
    _synchronize(dev)  # warm-up kernels must not spill into the timed window

    start = time.perf_counter()
    for _ in range(trials):
        a @ b
    _synchronize(dev)  # the kernels are queued, not done, until this returns
    elapsed = time.perf_counter() - start
    return elapsed / trials


def measure_matmul_mfu(m: int, k: int, n: int, dtype: torch.dtype, device: str) -> float:
    """MFU of one [m, k] @ [k, n] matmul on a CUDA device, against its dense peak."""
    dev = torch.device(device)
    if dev.type != "cuda":
        raise ValueError(f"measure_matmul_mfu needs a CUDA device, got {device!r}")
    peak = promised_flops_per_sec(torch.cuda.get_device_name(dev), dtype)
    seconds = time_matmul(m, k, n, dtype, device)
    return mfu(matmul_flops(m, k, n), seconds, peak)
