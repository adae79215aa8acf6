"""cruncher_flops forgets the final [dim -> 1] layer."""
TARGET = "flops"


def cruncher_flops(batch, dim, num_layers, input_requires_grad=False):
    per_layer = 2 * batch * dim * dim
    inputs_needing_grad = num_layers - 1 + bool(input_requires_grad) if num_layers else 0
    return per_layer * num_layers, per_layer * (num_layers + inputs_needing_grad)
