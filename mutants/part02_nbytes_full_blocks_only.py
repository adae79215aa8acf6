"""nvfp4_nbytes counts scales with numel // block_size: a short last block gets no scale."""
TARGET = "dtypes"


def nvfp4_nbytes(numel, block_size=16):
    return numel * 0.5 + numel // block_size + 4
