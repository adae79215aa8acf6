"""num_parameters adds up weight.shape[0] of each parameter instead of its number of elements."""
TARGET = "model"

REPLACE = [
    ("p.numel()", "p.shape[0]"),
]
