"""Scales and steps through the GradScaler but never calls scaler.update(): the scale never adapts."""
TARGET = "mixed_precision"

REPLACE = [
    ("        scaler.update()  # shrinks the scale after an overflow, grows it after clean steps\n", ""),
]
