"""num_parameters sums the state dict: buffers count, and a tied weight counts twice."""
TARGET = "model"


def num_parameters(model):
    return sum(value.numel() for value in model.state_dict().values())
