"""attainable_flops_per_sec takes the max of the two roofs instead of the min."""
TARGET = "roofline"


def attainable_flops_per_sec(intensity, peak, bytes_per_sec):
    return max(peak, intensity * bytes_per_sec)
