"""Calls optimizer.zero_grad() before backward instead of after the step: gradients are left behind."""
TARGET = "mixed_precision"

REPLACE = [
    ("    optimizer.zero_grad()\n", ""),
    ("    with torch.autocast(", "    optimizer.zero_grad()\n    with torch.autocast("),
]
