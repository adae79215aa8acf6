"""training_ledger gives bf16_mixed_adamw bf16 gradients (the weights' dtype) instead of fp32."""
TARGET = "memory"

REPLACE = [
    ('"bf16_mixed_adamw": _Recipe(torch.bfloat16, torch.float32, torch.float32,',
     '"bf16_mixed_adamw": _Recipe(torch.bfloat16, torch.float32, torch.bfloat16,'),
]
