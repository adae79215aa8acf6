"""get_batch returns x and y where torch.from_numpy left them (the CPU), whatever device it is given."""
TARGET = "training"

REPLACE = [
    ("    return x.to(device), y.to(device)", "    return x, y"),
]
