"""get_batch takes the target from column 0 and the inputs from the rest."""
TARGET = "training"

REPLACE = [
    ("data[rows, :-1]", "data[rows, 1:]"),
    ("data[rows, -1]", "data[rows, 0]"),
]
