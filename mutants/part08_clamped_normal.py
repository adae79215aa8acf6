"""Linear clamps a normal to ±3 std instead of truncating it: the tails pile up on the bounds."""
TARGET = "model"

REPLACE = [
    ("""\
torch.empty(input_dim, output_dim))
        nn.init.trunc_normal_(self.weight, mean=0.0, std=std, a=-3 * std, b=3 * std)""",
     "(torch.randn(input_dim, output_dim) * std).clamp(-3 * std, 3 * std))"),
]
