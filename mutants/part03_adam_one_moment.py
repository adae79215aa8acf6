"""training_ledger keeps one AdamW moment (m) instead of two (m and v): 4 bytes of state, not 8."""
TARGET = "memory"

_RECIPES = {name: _Recipe(r.weights, r.master, r.gradients, min(r.states, 1), r.state_dtype)
            for name, r in _RECIPES.items()}
