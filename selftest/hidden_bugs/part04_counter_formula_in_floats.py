"""count_matmul_flops computes a batched product's 2mkn in floats: right below 2**53, rounded above."""
TARGET = "flops"

REPLACE = [
    ("return 2 * batch * m * k * n", "return int(2.0 * batch * m * k * n)"),
]
