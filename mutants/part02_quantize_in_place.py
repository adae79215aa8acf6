"""nvfp4_quantize scales, clamps and rounds the blocks in place: when no padding is needed the blocks are
a view of x, and the caller's tensor is overwritten with the quantized values."""
TARGET = "dtypes"

REPLACE = [
    ("    blocks = F.pad(x, (0, -n % block_size)).view(-1, block_size)",
     "    blocks = (x if n % block_size == 0 else F.pad(x, (0, -n % block_size))).view(-1, block_size)"),
    ("    scaled = (blocks / torch.where(scale > 0, scale, 1.0)).clamp(-_FP4_MAX, _FP4_MAX)\n"
     "    return (_round_to_e2m1(scaled) * scale).reshape(-1)[:n]",
     "    blocks.div_(torch.where(scale > 0, scale, 1.0)).clamp_(-_FP4_MAX, _FP4_MAX)\n"
     "    blocks.copy_(_round_to_e2m1(blocks) * scale)\n"
     "    return blocks.reshape(-1)[:n]"),
]
