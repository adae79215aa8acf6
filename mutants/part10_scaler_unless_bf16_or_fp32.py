"""needs_grad_scaler answers True for every dtype but bfloat16 and float32 (float64 too)."""
TARGET = "mixed_precision"

REPLACE = [
    ("""    if dtype == torch.float16:
        return True
    if dtype == torch.bfloat16 or dtype in _FULL_PRECISION:
        return False""",
     """    return dtype not in (torch.bfloat16, torch.float32)"""),
]
