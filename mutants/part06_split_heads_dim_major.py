"""split_heads groups the model axis as (head_dim heads): each head takes every h-th feature."""
TARGET = "named"

REPLACE = [
    ("batch seq (heads head_dim) ->", "batch seq (head_dim heads) ->"),
]
