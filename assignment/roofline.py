"""Part 5 — MFU and arithmetic intensity.

Total FLOPs divided by a GPU's peak FLOP/s is only an ideal lower bound on time.
Two ideas say how far reality falls short, and why:

* MFU (Model FLOPs Utilisation) = achieved FLOP/s / the hardware's peak FLOP/s
  for that dtype (dense, not sparse). "GPU utilisation 100%" can still be an
  MFU of 40%: memory traffic, communication, kernel launches and Python all eat
  into it. Always say which model, dtype and hardware an MFU is about.
* Arithmetic intensity = FLOPs / bytes moved to and from HBM. A GPU can do
  ``peak`` FLOP/s and move ``bandwidth`` bytes/s; an operation whose intensity is
  below the *ridge point* ``peak / bandwidth`` runs out of bandwidth before it
  runs out of compute (memory-bound), above it the reverse (compute-bound).
  The "roofline": attainable FLOP/s = min(peak, intensity * bandwidth).

Bad arguments (non-positive times, peaks or bandwidths, sizes below 1, an
unknown device) raise ``ValueError`` with a message saying what was wrong.
"""

from __future__ import annotations

import torch

# Dense peak FLOP/s of the SXM parts from the vendors' datasheets, per chip and dtype:
#   PEAK_FLOPS_PER_SEC["H100"][torch.bfloat16] -> about 989.5e12
#
# Fill in at least "A100", "H100" and "H200", each with torch.float32, torch.bfloat16
# and torch.float16, plus torch.float8_e4m3fn for the chips that have FP8 tensor cores
# (H100 and H200; the A100 has none). Values are FLOP/s as floats (312 TFLOP/s is 312e12).
#
# Read the sheets carefully:
# * float32 means the plain (non-tensor-core) FP32 rate, not TF32.
# * The headline tensor-core figures with an asterisk assume 2:4 structured sparsity
#   (two of every four weights zero). Dense matmuls get half: the H100 sheet's
#   "1979 teraFLOPS" for BF16 is 989.5e12 dense.
# * The H200 is an H100 with more and faster memory: the same compute.
PEAK_FLOPS_PER_SEC: dict[str, dict[torch.dtype, float]] = NotImplemented

# HBM bandwidth in bytes/s, per chip: A100 (80 GB, SXM), H100 (SXM, 80 GB) and H200,
# from the same datasheets ("3.35TB/s" is 3.35e12 bytes/s).
HBM_BYTES_PER_SEC: dict[str, float] = NotImplemented


def promised_flops_per_sec(device_name: str, dtype: torch.dtype) -> float:
    """The dense peak from ``PEAK_FLOPS_PER_SEC`` for a ``torch.cuda.get_device_name()`` string.

    Device names carry more than the chip: split the name into words (on spaces
    and hyphens) and find the word that is a chip of the table. Match whole
    words, not substrings: "NVIDIA GH200 480GB" is a different machine, not an H200.

    Raise ``ValueError`` for a device the table does not know, and for a dtype
    the chip's table has no peak for.

    Examples:
        "NVIDIA H100 80GB HBM3", torch.bfloat16  -> 989.5e12
        "NVIDIA A100-SXM4-80GB", torch.float32   -> 19.5e12
        "NVIDIA H200", torch.float8_e4m3fn       -> 1979e12
        "NVIDIA GeForce RTX 4090", torch.bfloat16 -> ValueError
    """
    raise NotImplementedError("roofline.promised_flops_per_sec")


def mfu(flops: float, seconds: float, peak_flops_per_sec: float) -> float:
    """Model FLOPs utilisation: ``(flops / seconds) / peak_flops_per_sec``.

    ``flops`` is the work the model needs by the agreed count (2mkn for a
    matmul), not every instruction the GPU ran. Raise ``ValueError`` if
    ``seconds <= 0``, ``peak_flops_per_sec <= 0`` or ``flops < 0``.

    Examples:
        mfu(989.5e12, 2.0, 989.5e12) -> 0.5
        lecture: a bf16 [16384, 32768] @ [32768, 8192] is 2*16384*32768*8192
        = 8.796e12 FLOPs; done in 0.0178 s on an H100 that is
        mfu(8.796093022208e12, 0.0178, 989.5e12) -> about 0.4994
    """
    raise NotImplementedError("roofline.mfu")


def matmul_arithmetic_intensity(b: int, d: int, f: int, bytes_per_element: float = 2) -> float:
    """FLOPs per byte of ``Y = X @ W`` with X [b, d], W [d, f], Y [b, f].

    FLOPs: 2*b*d*f. Bytes: read X (b*d elements), read W (d*f), write Y (b*f),
    each element ``bytes_per_element`` bytes (2 for bf16):

        intensity = 2*b*d*f / (bytes_per_element * (b*d + d*f + b*f))

    When d and f are much larger than b this is about b (in bf16): the batch is
    what lets many tokens reuse each weight read from memory. Sizes below 1 or
    ``bytes_per_element <= 0`` raise ``ValueError``.

    Examples:
        matmul_arithmetic_intensity(1024, 8192, 8192)  -> 819.2
        matmul_arithmetic_intensity(1, 8192, 8192)     -> about 0.99976  (one-token decode)
    """
    raise NotImplementedError("roofline.matmul_arithmetic_intensity")


def ridge_point(peak_flops_per_sec: float, bytes_per_sec: float) -> float:
    """The intensity (FLOP/byte) where compute time equals memory time: ``peak / bandwidth``.

    Non-positive arguments raise ``ValueError``.

    Example: H100 bf16, ridge_point(989.5e12, 3.35e12) -> about 295.37; an H200
    (4.8e12 bytes/s) has its ridge at about 206: faster memory lowers the bar.
    """
    raise NotImplementedError("roofline.ridge_point")


def attainable_flops_per_sec(intensity: float, peak: float, bytes_per_sec: float) -> float:
    """The roofline: ``min(peak, intensity * bytes_per_sec)``.

    Below the ridge point the bandwidth limits how fast FLOPs can be fed; above
    it the compute units do. Non-positive ``peak`` or ``bytes_per_sec``, or a
    negative ``intensity``, raise ``ValueError``.

    Examples (H100 bf16, 989.5e12 and 3.35e12):
        intensity 1.0    -> 3.35e12     (memory-bound: 0.3% of peak)
        intensity 819.2  -> 989.5e12    (compute-bound)
    """
    raise NotImplementedError("roofline.attainable_flops_per_sec")


def is_compute_bound(intensity: float, peak: float, bytes_per_sec: float) -> bool:
    """True if ``intensity >= ridge_point(peak, bytes_per_sec)`` (exactly at the ridge counts).

    Same ``ValueError`` rules as ``attainable_flops_per_sec``.

    Examples (H100 bf16): intensity 819.2 -> True; intensity 1.0 -> False.
    """
    raise NotImplementedError("roofline.is_compute_bound")


def time_matmul(m: int, k: int, n: int, dtype: torch.dtype, device: str,
                warmup: int = 3, trials: int = 10) -> float:
    """Measured wall-clock seconds of ONE ``a @ b`` with a [m, k] and b [k, n] of ``dtype`` on ``device``.

    Make random inputs on the device (not zeros: they can run faster than real
    data), run ``warmup`` untimed products first (the first calls load
    libraries and pick kernels), then time ``trials`` products with
    ``time.perf_counter()`` and return the average per product, in seconds.
    Run exactly ``warmup + trials`` products, no others: the tests count them
    (a timer that warms up on its own, such as torch.utils.benchmark's, runs more).
    Leave torch's thread count as it is: the tests time one thread's products.

    GPU work is asynchronous: ``a @ b`` returns as soon as the kernel is queued.
    Call ``torch.cuda.synchronize()`` after the warm-up and again after the
    timed loop, before reading the clock, or you time the queueing, not the
    work. (On the CPU there is nothing to wait for.) Sizes below 1,
    ``warmup < 0`` or ``trials < 1`` raise ``ValueError``.

    Lecture pattern:
        for _ in range(warmup): a @ b
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(trials): a @ b
        torch.cuda.synchronize()
        seconds = (time.perf_counter() - start) / trials
    """
    raise NotImplementedError("roofline.time_matmul")


def measure_matmul_mfu(m: int, k: int, n: int, dtype: torch.dtype, device: str) -> float:
    """MFU of an [m, k] @ [k, n] matmul on a CUDA ``device``.

    ``mfu(2*m*k*n, time_matmul(m, k, n, dtype, device), promised)`` where
    ``promised`` is ``promised_flops_per_sec(torch.cuda.get_device_name(device), dtype)``.
    A device that is not CUDA raises ``ValueError`` (there is no peak to compare with).

    A large bf16 matmul on an H100 typically reaches 0.4 to 0.8. An MFU above 1.0
    is impossible: it means the clock was read before the kernels finished.
    """
    raise NotImplementedError("roofline.measure_matmul_mfu")
