"""Linear's weights from two uniforms mixed (U(-3, 3) std with probability 2.88%, else U(-1.655, 1.655) std):
the cut normal's std, nothing beyond the cut, its density just inside it, no pile and no tie, but 60% of the
weights within 1 std where a cut normal puts 68%."""
TARGET = "model"

REPLACE = [
    ("        nn.init.trunc_normal_(self.weight, mean=0.0, std=std, a=-3 * std, b=3 * std)",
     "        with torch.no_grad():\n"
     "            pick, unit = torch.rand(self.weight.shape), torch.rand(self.weight.shape) * 2 - 1\n"
     "            self.weight.copy_(torch.where(pick < 0.0288, 3.0 * unit, 1.6552 * unit) * std)"),
]
