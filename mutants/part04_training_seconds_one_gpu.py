"""training_seconds forgets to share the work among the GPUs."""
TARGET = "flops"


def training_seconds(total_flops, num_gpus, peak_flops_per_sec, mfu):
    if num_gpus < 1 or peak_flops_per_sec <= 0 or not 0 < mfu <= 1:
        raise ValueError("bad arguments")
    return total_flops / (peak_flops_per_sec * mfu)
