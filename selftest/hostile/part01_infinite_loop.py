"""Never returns from view_strides."""
TARGET = "strides"


def view_strides(shape, strides, new_shape):
    while True:
        pass
