"""cruncher_flops counts weight gradients only: backward = forward, no dX matmuls."""
TARGET = "flops"


def cruncher_flops(batch, dim, num_layers, input_requires_grad=False):
    forward = 2 * batch * dim * dim * num_layers + 2 * batch * dim
    return forward, forward
