"""open_dataset reads the whole file into memory with np.load(path), no memory map."""
TARGET = "training"

REPLACE = [
    ('np.load(path, mmap_mode="r")', "np.load(path)"),
]
