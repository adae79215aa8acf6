"""Linear copies the lecture's trunc_normal_(w, std=1/sqrt(input_dim), a=-3, b=3): a and b are absolute, so nothing is cut."""
TARGET = "model"

REPLACE = [
    ("a=-3 * std, b=3 * std", "a=-3, b=3"),
]
