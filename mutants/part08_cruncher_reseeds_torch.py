"""Cruncher seeds torch itself ("a reproducible model"): every Cruncher starts with the same weights, whatever the caller's seed."""
TARGET = "model"

REPLACE = [
    ("        self.layers = nn.ModuleList(", "        torch.manual_seed(0)\n        self.layers = nn.ModuleList("),
]
