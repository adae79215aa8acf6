"""nvfp4_quantize picks the nearest value with argmin over the sorted grid: a tie goes to the lower value."""
TARGET = "dtypes"

REPLACE = [
    ("    return torch.copysign(torch.round(magnitude / step) * step, r)", """\
    grid = torch.tensor(nvfp4_values())  # [15], sorted: argmin takes the first of two equals
    return grid[(r.unsqueeze(-1) - grid).abs().argmin(dim=-1)]"""),
]
