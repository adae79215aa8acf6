"""train appends the loss tensors themselves instead of loss.item()."""
TARGET = "training"

REPLACE = [
    ("losses.append(loss.item())", "losses.append(loss)"),
]
