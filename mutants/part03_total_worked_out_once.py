"""MemoryLedger.total is a cached_property: worked out the first time it is read, stale once a line changes."""
TARGET = "memory"

REPLACE = [
    ("""\
    @property
    def total(self) -> int:""", """\
    @__import__("functools").cached_property
    def total(self) -> int:"""),
]
