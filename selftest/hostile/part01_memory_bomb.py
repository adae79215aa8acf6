"""Allocates far more memory than any machine has, in view_strides."""
TARGET = "strides"


def view_strides(shape, strides, new_shape):
    hoard = []
    while True:
        hoard.append(bytearray(1 << 30))
