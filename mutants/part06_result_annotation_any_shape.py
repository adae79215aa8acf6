"""attention_scores annotates its result with "...": the right values, and an annotation of the result
that accepts any shape, so nothing checks what it returns."""
TARGET = "named"

REPLACE = [
    ("""\
) -> Float[torch.Tensor, "batch heads seq_q seq_k"]:""", """\
) -> Float[torch.Tensor, "..."]:"""),
]
