"""Linear draws a normal, draws the values beyond ±3 std again once, then clamps: the right spread, but
the few still beyond the cut (0.27% of 0.27%, about 4 of 2**19) sit on it, all of one magnitude."""
TARGET = "model"

REPLACE = [
    ("        nn.init.trunc_normal_(self.weight, mean=0.0, std=std, a=-3 * std, b=3 * std)",
     """        with torch.no_grad():
            draws = torch.randn(input_dim, output_dim)
            beyond = draws.abs() > 3
            draws[beyond] = torch.randn(int(beyond.sum()))
            self.weight.copy_(draws.clamp_(-3, 3) * std)"""),
]
