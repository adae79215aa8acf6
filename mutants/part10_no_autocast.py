"""No autocast at all: the forward and its matmuls run in float32."""
TARGET = "mixed_precision"

REPLACE = [
    ("torch.autocast(device_type=device_type, dtype=dtype)", "torch.autocast(device_type=device_type, enabled=False)"),
]
