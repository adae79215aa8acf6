"""num_parameters adds up weight.shape[0] of each parameter instead of its number of elements."""
TARGET = "model"


def num_parameters(model):
    return sum(p.shape[0] for p in model.parameters())
