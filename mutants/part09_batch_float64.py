"""get_batch returns float64 tensors (torch.tensor of the rows as float64)."""
TARGET = "training"


def get_batch(data, batch_size, rng, device="cpu"):
    rows = rng.integers(0, len(data), size=batch_size)
    batch = torch.tensor(data[rows], dtype=torch.float64)
    return batch[:, :-1].to(device), batch[:, -1].to(device)
