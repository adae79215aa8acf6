"""mfu divides the peak by the achieved rate."""
TARGET = "roofline"


def mfu(flops, seconds, peak_flops_per_sec):
    if seconds <= 0 or peak_flops_per_sec <= 0 or flops < 0:
        raise ValueError("bad arguments")
    return peak_flops_per_sec / (flops / seconds) if flops else 0.0
