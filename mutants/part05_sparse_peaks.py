"""PEAK_FLOPS_PER_SEC copies the datasheet's headline tensor figures, which assume 2:4 sparsity."""
TARGET = "roofline"

REPLACE = [
    ("""\
    torch.bfloat16: 989.5e12,
    torch.float16: 989.5e12,
    torch.float8_e4m3fn: 1979e12,""", """\
    torch.bfloat16: 1979e12,
    torch.float16: 1979e12,
    torch.float8_e4m3fn: 3958e12,"""),
    ("torch.bfloat16: 312e12, torch.float16: 312e12", "torch.bfloat16: 624e12, torch.float16: 624e12"),
]
