"""matmul_flops multiplies the sizes in an int64 tensor: right below 2**63, silently wrapped around above."""
TARGET = "flops"
REPLACE = [
    ("    # each of the m*n outputs is a length-k dot product: k multiplies and k adds\n    return 2 * m * k * n",
     "    return int(torch.tensor([2, m, k, n]).prod())"),
]
