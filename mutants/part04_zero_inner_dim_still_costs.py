"""A zero-length dot product is counted as one multiply-add: k is floored at 1 in matmul_flops."""
TARGET = "flops"
REPLACE = [
    ("    # each of the m*n outputs is a length-k dot product: k multiplies and k adds\n    return 2 * m * k * n\n",
     "    # each of the m*n outputs is a length-k dot product: k multiplies and k adds\n    return 2 * m * max(k, 1) * n\n"),
]
