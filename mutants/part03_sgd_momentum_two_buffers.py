"""training_ledger gives SGD with momentum two state buffers, as if it were Adam."""
TARGET = "memory"

REPLACE = [
    ("states=1)", "states=2)"),
]
