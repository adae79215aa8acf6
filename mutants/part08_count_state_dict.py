"""num_parameters sums the state dict: buffers count, and a tied weight counts twice."""
TARGET = "model"

REPLACE = [
    ("sum(p.numel() for p in model.parameters())", "sum(value.numel() for value in model.state_dict().values())"),
]
