"""Forgets optimizer.zero_grad(): the gradients stay on the parameters after the step."""
TARGET = "mixed_precision"

REPLACE = [
    ("    optimizer.zero_grad()\n", ""),
]
