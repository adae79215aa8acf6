"""nvfp4_quantize guards the division by the block's amax instead of its scale: a subnormal amax whose
amax / 6 rounds to 0 divides 0 by 0 (NaN) where the reference keeps 0."""
TARGET = "dtypes"

REPLACE = [
    ("    scaled = (blocks / torch.where(scale > 0, scale, 1.0)).clamp(-_FP4_MAX, _FP4_MAX)\n",
     "    amax = blocks.abs().amax(dim=1, keepdim=True)\n"
     "    scaled = (blocks / torch.where(amax > 0, scale, 1.0)).clamp(-_FP4_MAX, _FP4_MAX)\n"),
]
