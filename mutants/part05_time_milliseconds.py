"""time_matmul returns milliseconds, as printed in the lecture's benchmarks."""
TARGET = "roofline"

REPLACE = [
    ("return (time.perf_counter() - start) / trials", "return 1000 * (time.perf_counter() - start) / trials"),
]
