"""open_dataset maps the file writable (mmap_mode="r+"): a stray write changes the dataset on disk."""
TARGET = "training"

REPLACE = [
    ('mmap_mode="r")', 'mmap_mode="r+")'),
]
