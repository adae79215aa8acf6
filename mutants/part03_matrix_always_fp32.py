"""matrix_bytes assumes 4 bytes per element whatever the dtype."""
TARGET = "memory"


def matrix_bytes(rows, cols, dtype):
    return rows * cols * 4
