"""nvfp4_values decodes all 16 codes and keeps both +0 and -0."""
TARGET = "dtypes"

# a list instead of a set: -0.0 and 0.0 are both kept
REPLACE = [
    ("values = set()", "values = []"),
    ("values |= {magnitude, -magnitude}", "values += [-magnitude, magnitude]"),
]
