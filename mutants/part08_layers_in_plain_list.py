"""Cruncher keeps its hidden layers in a plain Python list: they are never registered as sub-modules."""
TARGET = "model"

REPLACE = [
    ("nn.ModuleList([Linear(dim, dim) for _ in range(num_layers)])", "[Linear(dim, dim) for _ in range(num_layers)]"),
]
