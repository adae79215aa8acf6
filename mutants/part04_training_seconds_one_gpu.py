"""training_seconds forgets to share the work among the GPUs."""
TARGET = "flops"

REPLACE = [
    ("(num_gpus * peak_flops_per_sec * mfu)", "(peak_flops_per_sec * mfu)"),
]
