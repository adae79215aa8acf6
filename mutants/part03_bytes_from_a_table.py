"""The ledgers' bytes per element come from a table of the common dtypes (the floats, ints, bool and
complex64), with 2 bytes for any other: uint32 and float8_e8m0fnu, say, are wrong."""
TARGET = "memory"

REPLACE = [
    ("""\
    return dtype.itemsize
""", """\
    table = {torch.float64: 8, torch.float32: 4, torch.float16: 2, torch.bfloat16: 2, torch.float8_e4m3fn: 1,
             torch.int64: 8, torch.int32: 4, torch.int8: 1, torch.bool: 1, torch.complex64: 8}
    return table.get(dtype, 2)
"""),
]
