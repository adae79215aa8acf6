"""Linear draws a normal, shrunk so that its std is the truncated normal's, clamped at ±3 std, and the
clamped values spread just inside the cut so that they make no pile and no tie at the largest magnitude:
every moment and every pile check of a truncated normal holds, but some 1400 weights crowd just inside
the cut where a truncated normal puts about 250."""
TARGET = "model"

REPLACE = [
    ("""\
        nn.init.trunc_normal_(self.weight, mean=0.0, std=std, a=-3 * std, b=3 * std)
""", """\
        with torch.no_grad():
            draw = torch.randn(input_dim, output_dim) * (0.98879 * std)
            edge = draw.abs() > 3 * std
            jitter = 3 * std * (1 - 1e-3 * torch.rand(input_dim, output_dim))
            self.weight.copy_(torch.where(edge, torch.sign(draw) * jitter, draw))
"""),
]
