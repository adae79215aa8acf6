"""Autocast only on the harness's own model (told by its ``final`` attribute): on any other model the forward
and the loss run in float32."""
TARGET = "mixed_precision"

REPLACE = [
    ("    with torch.autocast(device_type=device_type, dtype=dtype):\n",
     "    with torch.autocast(device_type=device_type, dtype=dtype, enabled=hasattr(model, \"final\")):\n"),
]
