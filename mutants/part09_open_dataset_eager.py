"""open_dataset reads the whole file into memory with np.load(path), no memory map."""
TARGET = "training"


def open_dataset(path):
    return np.load(path)
