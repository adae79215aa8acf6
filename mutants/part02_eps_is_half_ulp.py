"""format_limits gives the unit roundoff 2^-(m+1) as eps, not the gap 2^-m above 1.0."""
TARGET = "dtypes"

REPLACE = [
    ("eps=math.ldexp(1.0, -m)", "eps=math.ldexp(1.0, -m - 1)"),
]
