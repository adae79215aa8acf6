"""underflows_to_zero casts with torch (from float64, which torch rounds through float32 first): a value
just above half the smallest subnormal becomes the tie, and then 0."""
TARGET = "dtypes"

REPLACE = [
    ("    return abs(value) <= format_limits(fmt).smallest_subnormal / 2",
     "    return torch.tensor(value, dtype=torch.float64).to(dtype).item() == 0"),
]
