"""attention_scores puts seq_k before seq_q in the output (k·qᵀ instead of q·kᵀ)."""
TARGET = "named"

REPLACE = [
    ("-> batch heads seq_q seq_k", "-> batch heads seq_k seq_q"),
]
