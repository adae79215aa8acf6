"""The checkpoint saves and restores the model only, not the optimizer's state."""
TARGET = "training"

REPLACE = [
    ('"optimizer": optimizer.state_dict(), ', ""),
    ('    optimizer.load_state_dict(checkpoint["optimizer"])\n', ""),
]
