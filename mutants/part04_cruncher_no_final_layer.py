"""cruncher_flops forgets the final [dim -> 1] layer."""
TARGET = "flops"

REPLACE = [
    (" + [(dim, 1)]", ""),
]
