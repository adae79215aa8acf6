"""cruncher_activation_bytes counts the inputs of the hidden layers but not the final layer's."""
TARGET = "memory"

REPLACE = [
    ("return (num_layers + 1) * batch", "return num_layers * batch"),
]
