"""matrix_bytes allocates the matrix and reads its size: right wherever the machine lends the memory (CPU
pages are reserved lazily, so even the lecture's 2.4 GB matrix passes), an error for a matrix larger than the
machine's address space, which a count of bytes must still give."""
TARGET = "memory"

REPLACE = [
    ("    return rows * cols * _bytes(dtype)\n", "    return torch.empty(rows, cols, dtype=dtype).nbytes\n"),
]
