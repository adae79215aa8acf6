"""transpose wraps dims with dim % len(shape): a 0-d tensor, which torch transposes on dims 0 and -1,
raises ZeroDivisionError."""
TARGET = "strides"

REPLACE = [
    ("    if not shape:  # a 0-d tensor: dims 0 and -1 are allowed and nothing moves\n"
     "        _wrap_dim(dim0, 0), _wrap_dim(dim1, 0)\n"
     "        return (), ()\n"
     "    d0, d1 = _wrap_dim(dim0, len(shape)), _wrap_dim(dim1, len(shape))",
     "    d0, d1 = dim0 % len(shape), dim1 % len(shape)"),
]
