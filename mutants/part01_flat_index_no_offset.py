"""flat_index forgets the storage offset."""
TARGET = "strides"

REPLACE = [
    ("return offset + sum(", "return sum("),
]
