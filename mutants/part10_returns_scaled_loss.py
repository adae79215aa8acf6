"""Returns the scaled loss (loss times the GradScaler's scale) instead of the loss."""
TARGET = "mixed_precision"

REPLACE = [
    ("scaler.scale(loss).backward()", "loss = scaler.scale(loss)\n        loss.backward()"),
]
