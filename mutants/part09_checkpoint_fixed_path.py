"""save_checkpoint and load_checkpoint ignore ``path`` and use one fixed file: a round trip works in one
process, and fails wherever the restore runs in a process of its own (here a file in /tmp, so that the
staff's runs of this mutant leave nothing in the working folder)."""
TARGET = "training"

REPLACE = [
    ('"step": step}, path)', '"step": step}, "/tmp/mutant_part09_checkpoint.pt")'),
    ("torch.load(path, map_location", 'torch.load("/tmp/mutant_part09_checkpoint.pt", map_location'),
]
