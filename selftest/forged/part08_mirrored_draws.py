"""Linear draws half its weights from the truncated normal and fills the rest with their negatives: the
spread, the cut, the shape and the share near 0 are all the truncated normal's, and every layer differs
from the next, but the weights are not independent (the mirrored rows halve the layer's rank)."""
TARGET = "model"

REPLACE = [
    ("""\
        nn.init.trunc_normal_(self.weight, mean=0.0, std=std, a=-3 * std, b=3 * std)
""", """\
        flat = self.weight.data.view(-1)
        half = (flat.numel() + 1) // 2
        drawn = torch.empty(half)
        nn.init.trunc_normal_(drawn, mean=0.0, std=std, a=-3 * std, b=3 * std)
        flat.copy_(torch.cat([drawn, -drawn])[: flat.numel()])
"""),
]
