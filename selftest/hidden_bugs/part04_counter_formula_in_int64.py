"""count_matmul_flops computes a batched product's 2mkn as an int64 tensor's product: exact below 2**63, wrapped
above (a batch of 2048 or more at width 2**17: the hidden test's drawn batches reach it at some seeds only, so an
example of its own does at every seed, negative past 2**63 and small past 2**64)."""
TARGET = "flops"

REPLACE = [
    ("return 2 * batch * m * k * n", "return int(torch.tensor([2, batch, m, k, n]).prod())"),
]
