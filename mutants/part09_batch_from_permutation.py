"""get_batch takes the first batch_size rows of rng.permutation(len(data))."""
TARGET = "training"


def get_batch(data, batch_size, rng, device="cpu"):
    rows = rng.permutation(len(data))[:batch_size]
    x = torch.from_numpy(np.ascontiguousarray(data[rows, :-1], dtype=np.float32))
    y = torch.from_numpy(np.ascontiguousarray(data[rows, -1], dtype=np.float32))
    return x.to(device), y.to(device)
