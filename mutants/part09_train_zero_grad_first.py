"""train zeroes the gradients at the start of each step, so the last step's gradients stay behind."""
TARGET = "training"

REPLACE = [
    ("        optimizer.zero_grad()  # else the next backward adds onto these gradients\n", ""),
    ("        x, y = get_batch(", "        optimizer.zero_grad()\n        x, y = get_batch("),
]
