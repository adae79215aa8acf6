"""training_ledger keeps an fp32 master copy for bf16_adamw too (its recipe has none)."""
TARGET = "memory"

REPLACE = [
    ('"bf16_adamw": _Recipe(torch.bfloat16, None,', '"bf16_adamw": _Recipe(torch.bfloat16, torch.float32,'),
]
