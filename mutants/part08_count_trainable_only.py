"""num_parameters counts only the parameters that require grad: a frozen embedding is left out."""
TARGET = "model"

REPLACE = [
    ("sum(p.numel() for p in model.parameters())", "sum(p.numel() for p in model.parameters() if p.requires_grad)"),
]
