"""Linear draws N(0, std^2) and sets the draws beyond ±3 std to 0 instead of drawing them again: a pile of weights at 0."""
TARGET = "model"

REPLACE = [
    ("""\
torch.empty(input_dim, output_dim))
        nn.init.trunc_normal_(self.weight, mean=0.0, std=std, a=-3 * std, b=3 * std)""",
     """\
torch.randn(input_dim, output_dim) * std)
        with torch.no_grad():
            self.weight[self.weight.abs() > 3 * std] = 0.0"""),
]
