"""training_ledger gives SGD with momentum two state buffers, as if it were Adam."""
TARGET = "memory"

_RECIPES = {**_RECIPES, "fp32_sgd_momentum": _Recipe(torch.float32, None, torch.float32, states=2)}
