"""bytes_per_element reads torch.finfo(dtype).bits // 8, which fails for integer and bool dtypes."""
TARGET = "dtypes"


def bytes_per_element(dtype):
    return torch.finfo(dtype).bits // 8
