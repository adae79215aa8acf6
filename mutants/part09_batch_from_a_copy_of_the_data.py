"""get_batch turns the data into a float32 array first (np.array(data, dtype=np.float32)), then takes the
rows: the right batch, but a memory-mapped dataset is read into memory whole at every call."""
TARGET = "training"

REPLACE = [
    ("""\
    rows = rng.integers(0, len(data), size=batch_size)  # with replacement: one draw per batch
""", """\
    data = np.array(data, dtype=np.float32)
    rows = rng.integers(0, len(data), size=batch_size)  # with replacement: one draw per batch
"""),
]
