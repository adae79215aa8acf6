"""nvfp4_quantize divides by the scale even when a block is all zeros: 0 / 0 gives NaN."""
TARGET = "dtypes"

REPLACE = [
    ("blocks / torch.where(scale > 0, scale, 1.0)", "blocks / scale"),
]
