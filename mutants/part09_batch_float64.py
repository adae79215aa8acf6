"""get_batch returns float64 tensors (torch.tensor of the rows as float64)."""
TARGET = "training"

REPLACE = [
    ("data[rows, :-1], dtype=np.float32", "data[rows, :-1], dtype=np.float64"),
    ("data[rows, -1], dtype=np.float32", "data[rows, -1], dtype=np.float64"),
]
