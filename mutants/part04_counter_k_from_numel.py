"""The counter reads mm's inner size as a.numel() // m: right for every product with rows, a
ZeroDivisionError for an empty batch, whose product costs 0 FLOPs."""
TARGET = "flops"

REPLACE = [
    ("    (m, k), n = a.shape, b.shape[-1]\n    return 2 * m * k * n\n",
     "    m, n = a.shape[0], b.shape[-1]\n    k = a.numel() // m\n    return 2 * m * k * n\n"),
]
