"""get_batch serves the CPU alone: any other device is refused with a ValueError of its own (never moved)."""
TARGET = "training"

REPLACE = [
    ("    return x.to(device), y.to(device)",
     "    if torch.device(device).type != \"cpu\":\n"
     "        raise ValueError(f\"only the CPU is supported, not {device}\")\n"
     "    return x, y"),
]
