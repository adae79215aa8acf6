"""nvfp4_nbytes counts scales with numel // block_size: a short last block gets no scale."""
TARGET = "dtypes"

REPLACE = [
    ("blocks = -(-numel // block_size)", "blocks = numel // block_size"),
]
