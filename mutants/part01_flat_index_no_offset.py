"""flat_index forgets the storage offset."""
TARGET = "strides"


def flat_index(index, strides, offset=0):
    return sum(i * s for i, s in zip(index, strides))
