"""Calls sys.exit(0) inside view_strides, and os._exit(0) inside transpose."""
TARGET = "strides"

import os
import sys


def view_strides(shape, strides, new_shape):
    sys.exit(0)


def transpose(shape, strides, dim0, dim1):
    os._exit(0)
