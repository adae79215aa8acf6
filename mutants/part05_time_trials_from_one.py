"""time_matmul's timed loop counts from 1: trials - 1 products timed, the time divided by trials (with
trials=1 it times nothing at all)."""
TARGET = "roofline"

REPLACE = [
    ("    for _ in range(trials):\n        a @ b\n", "    for _ in range(1, trials):\n        a @ b\n"),
]
