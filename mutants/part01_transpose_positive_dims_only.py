"""transpose indexes with dims as given: a negative dim swaps the wrong entries when both are used."""
TARGET = "strides"

REPLACE = [
    ("d0, d1 = _wrap_dim(dim0, len(shape)), _wrap_dim(dim1, len(shape))",
     "d0, d1 = (dim0 if dim0 >= 0 else 0), (dim1 if dim1 >= 0 else 0)"),
]
