"""train never calls zero_grad: every step's gradient is the sum of all gradients so far."""
TARGET = "training"

REPLACE = [
    ("        optimizer.zero_grad()  # else the next backward adds onto these gradients\n", ""),
]
