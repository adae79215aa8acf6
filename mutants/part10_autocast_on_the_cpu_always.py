"""autocast_train_step autocasts the CPU whatever device_type it is given: every CPU step is right, a CUDA
step runs in float32."""
TARGET = "mixed_precision"

REPLACE = [
    ("""\
    with torch.autocast(device_type=device_type, dtype=dtype):""", """\
    with torch.autocast(device_type="cpu", dtype=dtype):"""),
]
