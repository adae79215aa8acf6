"""nvfp4_quantize rounds a tie away from zero (2.5 -> 3, 5 -> 6) instead of to the even mantissa."""
TARGET = "dtypes"


def _round_to_e2m1(r):
    magnitude = r.abs()
    step = torch.where(magnitude < 2, 0.5, torch.where(magnitude < 4, 1.0, 2.0))
    return torch.copysign(torch.floor(magnitude / step + 0.5) * step, r)
