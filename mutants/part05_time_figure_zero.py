"""time_matmul runs and times its products but returns 0.0 (the difference of two readings rounded away):
no product takes no time."""
TARGET = "roofline"

REPLACE = [
    ("    return (time.perf_counter() - start) / trials\n",
     "    return round((time.perf_counter() - start) / trials, 2)\n"),
]
