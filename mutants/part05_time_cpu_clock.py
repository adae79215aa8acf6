"""time_matmul reads time.process_time(), this process's CPU time, instead of a wall clock."""
TARGET = "roofline"

REPLACE = [
    ("    start = time.perf_counter()", "    start = time.process_time()"),
    ("    return (time.perf_counter() - start) / trials", "    return (time.process_time() - start) / trials"),
]
