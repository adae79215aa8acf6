"""_round_to_e2m1 takes anything within torch.isclose of a midpoint for a tie and rounds it to even: 2.5 +
2^-20 becomes 2, where 3 is nearest (with a scale of exactly 1 no slack excuses it)."""
TARGET = "dtypes"

REPLACE = [
    ("    return torch.copysign(torch.round(magnitude / step) * step, r)",
     "    spaced = magnitude / step\n"
     "    tie = torch.isclose(spaced - spaced.floor(), torch.full_like(spaced, 0.5))\n"
     "    rounded = torch.where(tie, torch.round(spaced.floor() + 0.5), torch.round(spaced))\n"
     "    return torch.copysign(rounded * step, r)"),
]
