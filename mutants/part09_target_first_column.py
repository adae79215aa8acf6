"""get_batch takes the target from column 0 and the inputs from the rest."""
TARGET = "training"


def get_batch(data, batch_size, rng, device="cpu"):
    rows = rng.integers(0, len(data), size=batch_size)
    x = torch.from_numpy(np.ascontiguousarray(data[rows, 1:], dtype=np.float32))
    y = torch.from_numpy(np.ascontiguousarray(data[rows, 0], dtype=np.float32))
    return x.to(device), y.to(device)
