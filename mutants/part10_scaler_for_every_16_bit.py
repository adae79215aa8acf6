"""Any 16-bit format needs a GradScaler: bfloat16's float32-sized exponent range is overlooked."""
TARGET = "mixed_precision"

REPLACE = [
    ("if dtype == torch.float16:", "if dtype in (torch.float16, torch.bfloat16):"),
]
