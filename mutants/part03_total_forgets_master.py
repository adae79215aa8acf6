"""MemoryLedger.total adds up every line except master_parameters."""
TARGET = "memory"

REPLACE = [
    (" + self.master_parameters", ""),
]
