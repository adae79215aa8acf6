"""time_matmul returns the time of all the trials, not of one product."""
TARGET = "roofline"

REPLACE = [
    ("return (time.perf_counter() - start) / trials", "return time.perf_counter() - start"),
]
