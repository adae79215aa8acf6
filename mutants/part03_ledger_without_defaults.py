"""MemoryLedger's lines have no defaults: right whenever all five are given, a TypeError for the
docstring's own MemoryLedger(parameters=4, gradients=4, optimizer_state=8)."""
TARGET = "memory"

REPLACE = [
    ("    activations: int = 0", "    activations: int"),
    ("    optimizer_state: int = 0", "    optimizer_state: int"),
    ("    gradients: int = 0", "    gradients: int"),
    ("    master_parameters: int = 0", "    master_parameters: int"),
    ("    parameters: int = 0", "    parameters: int"),
]
