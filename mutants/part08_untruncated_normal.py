"""Linear uses the lecture's plain Xavier init, randn / sqrt(input_dim), with no cut at ±3 std."""
TARGET = "model"

REPLACE = [
    ("""\
torch.empty(input_dim, output_dim))
        nn.init.trunc_normal_(self.weight, mean=0.0, std=std, a=-3 * std, b=3 * std)""",
     "torch.randn(input_dim, output_dim) / math.sqrt(input_dim))"),
]
