"""cruncher_flops uses the napkin rule backward = 2 x forward, always."""
TARGET = "flops"


def cruncher_flops(batch, dim, num_layers, input_requires_grad=False):
    forward = 2 * batch * dim * dim * num_layers + 2 * batch * dim
    return forward, 2 * forward
