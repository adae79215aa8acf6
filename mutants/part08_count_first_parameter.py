"""num_parameters counts only the first parameter tensor."""
TARGET = "model"

REPLACE = [
    ("return sum(p.numel() for p in model.parameters())", "return next(model.parameters()).numel()"),
]
