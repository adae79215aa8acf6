"""The jaxtyping annotations are deleted: right values, but nothing checks the shapes."""
TARGET = "named"

REPLACE = [
    ('''\
def attention_scores(
    q: Float[torch.Tensor, "batch seq_q heads dim"],
    k: Float[torch.Tensor, "batch seq_k heads dim"],
) -> Float[torch.Tensor, "batch heads seq_q seq_k"]:''', "def attention_scores(q, k):"),
    ('''\
def split_heads(
    x: Float[torch.Tensor, "batch seq model"], num_heads: int
) -> Float[torch.Tensor, "batch heads seq head_dim"]:''', "def split_heads(x, num_heads):"),
    ('''\
def merge_heads(
    x: Float[torch.Tensor, "batch heads seq head_dim"],
) -> Float[torch.Tensor, "batch seq model"]:''', "def merge_heads(x):"),
]
