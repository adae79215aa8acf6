"""Steps the optimizer twice: optimizer.step() after scaler.step(), or twice without a scaler."""
TARGET = "mixed_precision"

REPLACE = [
    ("    optimizer.zero_grad()", "    optimizer.step()\n    optimizer.zero_grad()"),
]
