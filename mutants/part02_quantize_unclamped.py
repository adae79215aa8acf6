"""nvfp4_quantize leaves x / scale unclamped ("amax / scale is 6 by construction"): where the scale is a
float32 subnormal it rounds, and x / scale can pass 6 (amax 7·2^-149: scale 2^-149, x / scale 7 -> 8)."""
TARGET = "dtypes"

REPLACE = [
    ("    scaled = (blocks / torch.where(scale > 0, scale, 1.0)).clamp(-_FP4_MAX, _FP4_MAX)\n",
     "    scaled = blocks / torch.where(scale > 0, scale, 1.0)\n"),
]
