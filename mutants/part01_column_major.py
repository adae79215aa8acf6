"""Column-major strides: the first dim gets stride 1 (Fortran order), as if counting from the left."""
TARGET = "strides"

REPLACE = [
    ("for d in range(len(shape) - 1, -1, -1):", "for d in range(len(shape)):"),
]
