"""nvfp4_quantize quantizes only whole blocks and copies a short last block through unchanged."""
TARGET = "dtypes"

REPLACE = [
    ("    return (_round_to_e2m1(scaled) * scale).reshape(-1)[:n]", """\
    whole = n - n % block_size
    return torch.cat([(_round_to_e2m1(scaled) * scale).reshape(-1)[:whole], x[whole:]])"""),
]
