"""matmul_arithmetic_intensity counts the bytes read (X and W) but not the output written."""
TARGET = "roofline"


def matmul_arithmetic_intensity(b, d, f, bytes_per_element=2):
    return 2 * b * d * f / (bytes_per_element * (b * d + d * f))
