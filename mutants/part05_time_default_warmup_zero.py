"""time_matmul's signature defaults to no warm-up (warmup=0, the spec says 3): the first products,
library loading and caches warming, fall inside the timed loop whenever the caller leaves the default."""
TARGET = "roofline"

REPLACE = [
    ("                warmup: int = 3, trials: int = 10) -> float:",
     "                warmup: int = 0, trials: int = 10) -> float:"),
]
