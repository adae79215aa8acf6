"""nvfp4_quantize picks the nearest value with argmin over the sorted grid: a tie goes to the lower value."""
TARGET = "dtypes"


def _round_to_e2m1(r):
    grid = torch.tensor(nvfp4_values())  # [15], sorted: argmin takes the first of two equals
    nearest = (r.unsqueeze(-1) - grid).abs().argmin(dim=-1)
    return grid[nearest]
