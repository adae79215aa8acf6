"""nvfp4_quantize divides by the block scale plus 1e-12, the usual guard against 0 / 0: right for blocks
of ordinary size, zeros for a block whose scale is near or below 1e-12."""
TARGET = "dtypes"

REPLACE = [
    ("scaled = (blocks / torch.where(scale > 0, scale, 1.0))", "scaled = (blocks / (scale + 1e-12))"),
]
