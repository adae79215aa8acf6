"""PEAK_FLOPS_PER_SEC copies the datasheet's headline tensor figures, which assume 2:4 sparsity."""
TARGET = "roofline"

_SPARSE_HOPPER = {
    torch.float32: 67e12,
    torch.bfloat16: 1979e12,
    torch.float16: 1979e12,
    torch.float8_e4m3fn: 3958e12,
}
PEAK_FLOPS_PER_SEC = {
    "A100": {torch.float32: 19.5e12, torch.bfloat16: 624e12, torch.float16: 624e12},
    "H100": dict(_SPARSE_HOPPER),
    "H200": dict(_SPARSE_HOPPER),
}
