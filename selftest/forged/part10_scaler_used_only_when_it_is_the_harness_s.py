"""A GradScaler used only where it is the harness's watched subclass: a plain torch.amp.GradScaler, as anyone
else passes, is ignored (the loss backward unscaled, the optimizer stepped directly, no update)."""
TARGET = "mixed_precision"

REPLACE = [
    ("    if scaler is None:\n", "    if scaler is None or type(scaler) is torch.amp.GradScaler:\n"),
]
