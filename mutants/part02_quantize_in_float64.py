"""nvfp4_quantize computes in float64 and returns float32: the scale amax / 6 is no longer rounded to
float32, which shows where it is subnormal there (1e-40 comes back 9.999946e-41)."""
TARGET = "dtypes"

REPLACE = [
    ("    blocks = F.pad(x, (0, -n % block_size)).view(-1, block_size)  # [num_blocks, block_size]\n",
     "    blocks = F.pad(x.double(), (0, -n % block_size)).view(-1, block_size)\n"),
    ("    return (_round_to_e2m1(scaled) * scale).reshape(-1)[:n]\n",
     "    return (_round_to_e2m1(scaled) * scale).reshape(-1)[:n].float()\n"),
]
