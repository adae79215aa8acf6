"""flat_index's offset defaults to 1, not 0: right whenever the caller passes an offset."""
TARGET = "strides"

REPLACE = [
    ("def flat_index(index: tuple[int, ...], strides: Strides, offset: int = 0) -> int:",
     "def flat_index(index: tuple[int, ...], strides: Strides, offset: int = 1) -> int:"),
]
