"""The model is converted to the low-precision dtype instead of using autocast: parameters are no longer float32."""
TARGET = "mixed_precision"

REPLACE = [
    ("""\
    with torch.autocast(device_type=device_type, dtype=dtype):
        pred = model(x)""", """\
    model.to(dtype)
    with torch.autocast(device_type=device_type, enabled=False):
        pred = model(x.to(dtype))"""),
]
