"""nvfp4_quantize scales each value as x * 6 / amax: x / (amax / 6) in other words, until x * 6 overflows float32."""
TARGET = "dtypes"
REPLACE = [
    ("scale = blocks.abs().amax(dim=1, keepdim=True) / _FP4_MAX  # [num_blocks, 1], float32",
     "amax = blocks.abs().amax(dim=1, keepdim=True)  # [num_blocks, 1]\n    scale = amax / _FP4_MAX"),
    ("scaled = (blocks / torch.where(scale > 0, scale, 1.0))",
     "scaled = (blocks * _FP4_MAX / torch.where(amax > 0, amax, 1.0))"),
]
