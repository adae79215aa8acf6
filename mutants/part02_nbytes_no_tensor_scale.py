"""nvfp4_nbytes forgets the 4-byte fp32 scale of the whole tensor."""
TARGET = "dtypes"


def nvfp4_nbytes(numel, block_size=16):
    return numel * 0.5 + -(-numel // block_size)
