"""count_matmul_flops counts one matrix of a batch: bmm is 2*m*k*n, the batch size forgotten."""
TARGET = "flops"

REPLACE = [
    ("return 2 * batch * m * k * n", "return 2 * m * k * n"),
]
