"""merge_heads groups (head_dim heads), so it does not invert split_heads."""
TARGET = "named"

REPLACE = [
    ("-> batch seq (heads head_dim)", "-> batch seq (head_dim heads)"),
]
