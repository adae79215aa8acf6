"""cruncher_flops uses the napkin rule backward = 2 x forward, always."""
TARGET = "flops"

REPLACE = [
    ("return forward, backward", "return forward, 2 * forward"),
]
