"""attention_scores is marked typing.no_type_check: its annotations are right, but jaxtyping's run-time
check skips a function so marked, so an int64 q passes where the course's checker raises. The source
reading refuses it, as it refuses other ways to reach around the checks."""
TARGET = "named"

REPLACE = [
    ("import math\n", "import math\nfrom typing import no_type_check\n"),
    ("def attention_scores(", "@no_type_check\ndef attention_scores("),
]
