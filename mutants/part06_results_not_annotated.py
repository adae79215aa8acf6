"""The three functions return a plain ``torch.Tensor``: their results are never checked, only their
arguments."""
TARGET = "named"

REPLACE = [
    (') -> Float[torch.Tensor, "batch heads seq_q seq_k"]:', ") -> torch.Tensor:"),
    (') -> Float[torch.Tensor, "batch heads seq head_dim"]:', ") -> torch.Tensor:"),
    (') -> Float[torch.Tensor, "batch seq model"]:', ") -> torch.Tensor:"),
]
