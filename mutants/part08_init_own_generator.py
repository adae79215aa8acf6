"""Linear draws from a fixed-seed generator of its own: every layer gets the same weights, whatever torch.manual_seed."""
TARGET = "model"

REPLACE = [
    ("a=-3 * std, b=3 * std)", "a=-3 * std, b=3 * std, generator=torch.Generator().manual_seed(0))"),
]
