"""Cruncher scales its hidden layers' weights down by sqrt(num_layers) after building them: not Linear's
initialisation. It loads the spec's weights and runs them right."""
TARGET = "model"

REPLACE = [
    ("        self.final = Linear(dim, 1)\n",
     "        self.final = Linear(dim, 1)\n        with torch.no_grad():\n            for layer in self.layers:\n"
     "                layer.weight /= max(num_layers, 1) ** 0.5\n"),
]
