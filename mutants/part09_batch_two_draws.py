"""get_batch draws the rows twice, once for x and once for y, as if they were separate."""
TARGET = "training"

# the second draw is dropped: y keeps x's rows, but the generator has moved on
REPLACE = [
    ("    y = torch.from_numpy(", """\
    rows_again = rng.integers(0, len(data), size=batch_size)
    del rows_again
    y = torch.from_numpy("""),
]
