"""open_dataset maps the file writable (mmap_mode="r+"): a stray write changes the dataset on disk."""
TARGET = "training"


def open_dataset(path):
    return np.load(path, mmap_mode="r+")
