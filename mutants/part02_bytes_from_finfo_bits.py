"""bytes_per_element reads torch.finfo(dtype).bits // 8, which fails for integer and bool dtypes."""
TARGET = "dtypes"

REPLACE = [
    ("return dtype.itemsize", "return torch.finfo(dtype).bits // 8"),
]
