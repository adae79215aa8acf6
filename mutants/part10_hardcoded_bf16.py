"""Autocast always in bfloat16, whatever dtype is asked for."""
TARGET = "mixed_precision"

REPLACE = [
    ("torch.autocast(device_type=device_type, dtype=dtype)",
     "torch.autocast(device_type=device_type, dtype=torch.bfloat16)"),
]
