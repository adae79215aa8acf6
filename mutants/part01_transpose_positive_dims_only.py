"""transpose indexes with dims as given: a negative dim swaps the wrong entries when both are used."""
TARGET = "strides"


def transpose(shape, strides, dim0, dim1):
    new_shape, new_strides = list(shape), list(strides)
    d0 = dim0 if dim0 >= 0 else 0
    d1 = dim1 if dim1 >= 0 else 0
    new_shape[d0], new_shape[d1] = shape[d1], shape[d0]
    new_strides[d0], new_strides[d1] = strides[d1], strides[d0]
    return tuple(new_shape), tuple(new_strides)
