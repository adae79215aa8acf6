"""time_matmul times the trials alone but divides by every product it ran, warm-up included: the figure
is too small by (warmup + trials) / trials, within the harness's window when the warm-up is short."""
TARGET = "roofline"

REPLACE = [
    ("    return (time.perf_counter() - start) / trials\n",
     "    return (time.perf_counter() - start) / (warmup + trials)\n"),
]
