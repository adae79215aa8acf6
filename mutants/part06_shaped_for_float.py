"""jaxtyping's Shaped imported as Float: the shapes are checked, the dtype is not (an integer tensor
passes)."""
TARGET = "named"

REPLACE = [
    ("from jaxtyping import Float", "from jaxtyping import Shaped as Float"),
]
