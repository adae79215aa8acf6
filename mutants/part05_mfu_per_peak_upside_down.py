"""mfu divides the peak by the achieved rate."""
TARGET = "roofline"

REPLACE = [
    ("return flops / seconds / peak_flops_per_sec", "return peak_flops_per_sec / (flops / seconds) if flops else 0.0"),
]
