"""Column-major strides: the first dim gets stride 1 (Fortran order), as if counting from the left."""
TARGET = "strides"


def contiguous_strides(shape):
    strides, step = [], 1
    for size in shape:
        strides.append(step)
        step *= max(size, 1)
    return tuple(strides)
