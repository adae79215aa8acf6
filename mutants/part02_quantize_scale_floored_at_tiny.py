"""nvfp4_quantize guards the division with a floor on the scale, float32's smallest normal: an all-zero
block stays zero, but every block whose amax / 6 is subnormal gets a larger scale than the spec's."""
TARGET = "dtypes"

REPLACE = [
    ("""\
    scaled = (blocks / torch.where(scale > 0, scale, 1.0)).clamp(-_FP4_MAX, _FP4_MAX)""", """\
    scale = scale.clamp_min(torch.finfo(torch.float32).tiny)
    scaled = (blocks / scale).clamp(-_FP4_MAX, _FP4_MAX)"""),
]
