"""training_ledger keeps an fp32 master copy for bf16_adamw too (its recipe has none)."""
TARGET = "memory"

_RECIPES = {**_RECIPES, "bf16_adamw": _Recipe(torch.bfloat16, torch.float32, torch.bfloat16, states=2)}
