"""attention_scores' result marks its axes as broadcasting ("#batch #heads #seq_q #seq_k"): a result with
any of them of length 1 passes the check, whatever q and k hold."""
TARGET = "named"

REPLACE = [
    (') -> Float[torch.Tensor, "batch heads seq_q seq_k"]:', ') -> Float[torch.Tensor, "#batch #heads #seq_q #seq_k"]:'),
]
