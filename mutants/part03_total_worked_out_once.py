"""MemoryLedger.total is a cached_property: worked out the first time it is read, stale once a line changes."""
TARGET = "memory"

REPLACE = [
    ("import math\n", "import functools\nimport math\n"),
    ("""\
    @property
    def total(self) -> int:""", """\
    @functools.cached_property
    def total(self) -> int:"""),
]
