"""cruncher_activation_bytes counts the inputs of the hidden layers but not the final layer's."""
TARGET = "memory"


def cruncher_activation_bytes(batch, dim, num_layers, dtype):
    return num_layers * batch * dim * _bytes(dtype)
