"""train refuses num_steps = 0 as a bad argument (num_steps < 1), though only a negative count is one."""
TARGET = "training"
REPLACE = [
    ("""    if num_steps < 0:
        raise ValueError(f"num_steps must be >= 0, got {num_steps}")""",
     """    if num_steps < 1:
        raise ValueError(f"num_steps must be >= 1, got {num_steps}")"""),
]
