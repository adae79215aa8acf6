"""matrix_bytes counts a bool as one bit (torch.bool stores a byte per element), everything else right:
the public test's bool example shows it, not only grading's draws."""
TARGET = "memory"

REPLACE = [
    ("    return rows * cols * _bytes(dtype)",
     "    if dtype == torch.bool:\n        return -(-rows * cols // 8)\n    return rows * cols * _bytes(dtype)"),
]
