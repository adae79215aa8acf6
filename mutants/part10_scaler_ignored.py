"""The scaler is ignored: plain backward and optimizer.step() even when a GradScaler is given."""
TARGET = "mixed_precision"

REPLACE = [
    ("if scaler is None:", "if True:"),
]
