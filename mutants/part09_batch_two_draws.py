"""get_batch draws the rows twice, once for x and once for y, as if they were separate."""
TARGET = "training"


def get_batch(data, batch_size, rng, device="cpu"):
    rows = rng.integers(0, len(data), size=batch_size)
    x = torch.from_numpy(np.ascontiguousarray(data[rows, :-1], dtype=np.float32))
    rows_again = rng.integers(0, len(data), size=batch_size)
    del rows_again  # drawn and dropped: the generator has still moved on
    y = torch.from_numpy(np.ascontiguousarray(data[rows, -1], dtype=np.float32))
    return x.to(device), y.to(device)
