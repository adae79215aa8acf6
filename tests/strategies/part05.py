"""Inputs for Part 5: device names, MFU and roofline numbers, CPU matmul timings.

Roofline cases never sit on an *inexact* tie with the ridge point: a student may
test ``intensity >= peak / bandwidth`` or ``intensity * bandwidth >= peak``, and
in floating point the two can disagree right at the ridge. Ties are built from
integers (peak = ridge * bandwidth exactly), where both agree; every other
intensity is at least a millionth away from the ridge.
"""

from __future__ import annotations

import torch
from hypothesis import strategies as st

CHIPS = ("A100", "H100", "H200")
# the dtypes every table must hold; a table may hold more (float8_e5m2, float64...)
TABLE_DTYPES = {
    "A100": (torch.float32, torch.bfloat16, torch.float16),
    "H100": (torch.float32, torch.bfloat16, torch.float16, torch.float8_e4m3fn),
    "H200": (torch.float32, torch.bfloat16, torch.float16, torch.float8_e4m3fn),
}
NO_FP8 = (torch.float8_e4m3fn, torch.float8_e5m2)  # the A100 has no FP8 tensor cores

# what torch.cuda.get_device_name() says on the SXM parts of the table
KNOWN_NAMES = {
    "NVIDIA A100-SXM4-80GB": "A100",
    "NVIDIA A100-SXM4-40GB": "A100",
    "NVIDIA H100 80GB HBM3": "H100",
    "NVIDIA H200": "H200",
}
# no chip of the table; some hide a chip's name inside a longer word
UNKNOWN_NAMES = (
    "NVIDIA GH200 480GB",
    "NVIDIA GeForce RTX 4090",
    "Tesla V100-SXM2-32GB",
    "NVIDIA L40S",
    "NVIDIA H20",
    "NVIDIA B200",
    "cpu",
    # a word that begins with a chip's name, or that a chip's name begins with: whole words only
    "NVIDIA RTX A1000 Laptop GPU",
    "NVIDIA A10",
)

# (peak FLOP/s, bytes/s) of real chips: bf16 and fp32 against HBM
MACHINES = ((989.5e12, 3.35e12), (989.5e12, 4.8e12), (312e12, 2.039e12),
            (67e12, 3.35e12), (19.5e12, 2.039e12))


@st.composite
def chip_names(draw):
    """(name, chip): a real name, or a table chip inside a name of another shape ("H100-SXM5-80GB")."""
    if draw(st.booleans()):
        name = draw(st.sampled_from(sorted(KNOWN_NAMES)))
        return name, KNOWN_NAMES[name]
    chip = draw(st.sampled_from(CHIPS))
    prefix = draw(st.sampled_from(["", "NVIDIA "]))
    suffix = draw(st.sampled_from(["", " 80GB HBM3", "-SXM4-80GB", "-SXM5-80GB", " 141GB HBM3e", " PCIe", " NVL",
                                   "-PCIE-40GB", " 80GB PCIe", " MIG 1g.10gb"]))
    if draw(st.booleans()):  # a memory size of any number: the names a table of names cannot hold
        suffix += f"{draw(st.sampled_from([' ', '-']))}{draw(st.integers(1, 999))}GB"
    return prefix + chip + suffix, chip


@st.composite
def promised_cases(draw):
    """(device_name, dtype) whose answer every correct table agrees on.

    A chip's required dtypes (a value), FP8 on the A100 (ValueError), and unknown
    devices (ValueError). Never a dtype a fuller table may rightly hold.
    """
    branch = draw(st.integers(0, 5))
    if branch == 0:
        return draw(st.sampled_from(UNKNOWN_NAMES)), draw(st.sampled_from(TABLE_DTYPES["H100"]))
    if branch == 1:  # FP8 on the A100, often enough to be seen in every run (e5m2 comes with the chips below)
        return draw(st.sampled_from([n for n, chip in KNOWN_NAMES.items() if chip == "A100"])), torch.float8_e4m3fn
    name, chip = draw(chip_names())
    dtypes = TABLE_DTYPES[chip] + (NO_FP8 if chip == "A100" else ())
    return name, draw(st.sampled_from(dtypes))


# (m, k, n, place): a product of about 1 GFLOP, and which of two calls of it is held stopped from outside
held_up_cases = st.tuples(st.integers(768, 960), st.integers(768, 960), st.integers(768, 960), st.integers(0, 1))

# (m, k, n, warmup, trials): a thin product (n far below m and k: drawing its inputs costs 3 to 10 times the
# product, so a figure that takes the drawing in shows), with few products, so that one too few shows. m, k
# and n never meet: the watch knows a product by its operands' shapes alone, and a copy of an [m, k] with m == k
# would look like one
# (warmup and trials None about half the time: the defaults, which must be the signature's 3 and 10)
counted_cases = st.tuples(st.integers(640, 767), st.integers(768, 896), st.integers(4, 16),
                          st.one_of(st.tuples(st.integers(0, 3), st.integers(1, 4)), st.just((None, None)))
                          ).map(lambda case: (*case[:3], *case[3]))


@st.composite
def mfu_cases(draw):
    """(flops, seconds, peak_flops_per_sec), ints or floats."""
    flops = draw(st.one_of(st.integers(0, 10**16), st.floats(1e6, 1e25)))
    seconds = draw(st.floats(1e-6, 1e7))
    peak = draw(st.one_of(st.sampled_from([19.5e12, 312e12, 989.5e12]), st.floats(1e9, 1e16)))
    return flops, seconds, peak


@st.composite
def intensity_cases(draw):
    """(b, d, f[, bytes_per_element]); without bytes the default (2, bf16) applies."""
    size = st.one_of(st.integers(1, 8), st.integers(1, 100_000))
    dims = (draw(size), draw(size), draw(size))
    nbytes = draw(st.sampled_from([(), (2,), (4,), (1,), (0.5,)]))
    return (*dims, *nbytes)


@st.composite
def roofline_cases(draw):
    """(intensity, peak, bytes_per_sec): exact integer ties, or clearly on one side."""
    if draw(st.booleans()):
        ridge = draw(st.integers(1, 1000))
        bandwidth = draw(st.integers(1, 10**12))
        return draw(st.sampled_from([ridge, float(ridge)])), ridge * bandwidth, bandwidth
    peak, bandwidth = draw(st.one_of(
        st.sampled_from(MACHINES),
        st.tuples(st.floats(1e9, 1e16), st.floats(1e9, 1e13)),
    ))
    factor = draw(st.one_of(st.floats(1e-4, 1 - 1e-6), st.floats(1 + 1e-6, 1e4)))
    return peak / bandwidth * factor, peak, bandwidth


@st.composite
def cpu_timing_cases(draw):
    """(m, k, n, warmup, trials): one float32 product takes about 0.3-0.8 ms on a quiet CPU.

    ``warmup`` and ``trials`` are None to leave the defaults (3 and 10). At least 8
    trials, so that returning the total instead of one product's time shows.
    """
    m, k, n = (draw(st.integers(256, 320)) for _ in range(3))
    if draw(st.booleans()):
        return m, k, n, None, None
    return m, k, n, draw(st.integers(1, 10)), draw(st.integers(8, 12))
