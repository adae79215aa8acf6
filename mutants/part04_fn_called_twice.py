"""count_matmul_flops calls fn() once outside the counter first (a "warm-up"), then counts a second
call: the count is right, but fn's work (a backward, an optimizer step) is done twice."""
TARGET = "flops"

REPLACE = [
    ("    counter = _MatmulCounter()\n    with counter:\n",
     "    counter = _MatmulCounter()\n    fn()  # warm-up, not counted\n    with counter:\n"),
]
