"""autocast_train_step steps a copy of the optimizer it is given (made afresh from its param_groups): the
parameters move as one step moves them, but the caller's optimizer keeps no moments and no step count."""
TARGET = "mixed_precision"

REPLACE = [
    ("""\
    if dtype not in _AUTOCAST_DTYPES:
        raise ValueError(f"autocast trains in bfloat16 or float16, not {dtype}")
""", """\
    if dtype not in _AUTOCAST_DTYPES:
        raise ValueError(f"autocast trains in bfloat16 or float16, not {dtype}")
    optimizer = type(optimizer)([dict(group) for group in optimizer.param_groups])
"""),
]
