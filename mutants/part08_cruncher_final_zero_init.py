"""Cruncher sets its last layer's weights to zero (a trick of some papers): the spec's Cruncher only puts
Linear layers together, each initialised as Linear is. It loads the spec's weights and runs them right."""
TARGET = "model"

REPLACE = [
    ("        self.final = Linear(dim, 1)\n",
     "        self.final = Linear(dim, 1)\n        nn.init.zeros_(self.final.weight)\n"),
]
