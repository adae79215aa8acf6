"""Cruncher sets every weight to plus or minus Linear's std (a coin flip): the right mean and spread,
but no normal's tails. It loads the spec's weights and runs them right."""
TARGET = "model"

REPLACE = [
    ("        self.final = Linear(dim, 1)\n",
     "        self.final = Linear(dim, 1)\n        with torch.no_grad():\n"
     "            for layer in [*self.layers, self.final]:\n"
     "                coin = torch.randint(0, 2, layer.weight.shape) * 2.0 - 1.0\n"
     "                layer.weight.copy_(coin * (0.98658 / dim**0.5))\n"),
]
