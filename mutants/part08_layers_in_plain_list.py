"""Cruncher keeps its hidden layers in a plain Python list: they are never registered as sub-modules."""
TARGET = "model"


def _init_with_list(self, dim, num_layers):
    nn.Module.__init__(self)
    self.layers = [Linear(dim, dim) for _ in range(num_layers)]
    self.final = Linear(dim, 1)


Cruncher.__init__ = _init_with_list
