"""training_ledger keeps one AdamW moment (m) instead of two (m and v): 4 bytes of state, not 8."""
TARGET = "memory"

REPLACE = [
    ("num_params * r.states", "num_params * min(r.states, 1)"),
]
