"""train draws its batches from a copy of the generator it is given: the same batches, but the caller's
generator never moves on, so a second run (or a resumed one) repeats them."""
TARGET = "training"

REPLACE = [
    ("import numpy as np\n", "import copy\n\nimport numpy as np\n"),
    ("""\
    losses = []
    for _ in range(num_steps):
""", """\
    losses = []
    rng = copy.deepcopy(rng)
    for _ in range(num_steps):
"""),
]
