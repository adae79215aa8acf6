"""Counts multiply-adds, not FLOPs: a matmul is m*k*n (the factor 2 forgotten)."""
TARGET = "flops"

# _mm, the counter's helper, has the same return line and stays right: "k adds" picks matmul_flops's
REPLACE = [
    ("k adds\n    return 2 * m * k * n", "k adds\n    return m * k * n"),
    ("forward=2 * ", "forward="),
    ("backward_input=2 * ", "backward_input="),
    ("backward_weight=2 * ", "backward_weight="),
]
