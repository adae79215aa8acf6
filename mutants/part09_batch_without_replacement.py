"""get_batch draws distinct rows with rng.choice(..., replace=False), not rng.integers."""
TARGET = "training"


def get_batch(data, batch_size, rng, device="cpu"):
    rows = rng.choice(len(data), size=batch_size, replace=False)
    x = torch.from_numpy(np.ascontiguousarray(data[rows, :-1], dtype=np.float32))
    y = torch.from_numpy(np.ascontiguousarray(data[rows, -1], dtype=np.float32))
    return x.to(device), y.to(device)
