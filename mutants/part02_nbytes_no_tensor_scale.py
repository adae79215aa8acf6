"""nvfp4_nbytes forgets the 4-byte fp32 scale of the whole tensor."""
TARGET = "dtypes"

REPLACE = [
    (" + _TENSOR_SCALE_BYTES", ""),
]
