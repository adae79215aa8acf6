"""nvfp4_quantize uses one scale for the whole tensor instead of one per block."""
TARGET = "dtypes"

REPLACE = [
    ("scale = blocks.abs().amax(dim=1, keepdim=True)", "scale = blocks.abs().amax()"),
]
