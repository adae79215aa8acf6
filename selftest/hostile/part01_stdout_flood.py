"""Prints without end inside view_strides."""
TARGET = "strides"

import sys


def view_strides(shape, strides, new_shape):
    line = "x" * 4095 + "\n"
    while True:
        sys.stdout.write(line)
