"""time_matmul divides the timed seconds by 2 * trials (the 2 of 2mkn FLOPs, misplaced): half the figure,
within the harness's window and the figure's share of the call's wall time on a busy machine."""
TARGET = "roofline"

REPLACE = [
    ("    return (time.perf_counter() - start) / trials\n",
     "    return (time.perf_counter() - start) / (2 * trials)\n"),
]
