"""training_flops counts the forward pass only: 2PD instead of 6PD."""
TARGET = "flops"


def training_flops(num_params, num_tokens):
    return float(2 * num_params * num_tokens)
