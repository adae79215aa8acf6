"""get_batch pins the batch for any device but the CPU and never moves it there: on a machine without a GPU
pinning fails inside torch, which says nothing of where the batch goes."""
TARGET = "training"

REPLACE = [
    ("    return x.to(device), y.to(device)",
     "    if torch.device(device).type != \"cpu\":\n"
     "        x, y = x.pin_memory(), y.pin_memory()\n"
     "    return x, y"),
]
