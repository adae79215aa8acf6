"""train steps an AdamW of its own (the harness's learning rate, read off the handout) instead of the
optimizer it is given: the losses come out right, and the given optimizer never learns a thing."""
TARGET = "training"

REPLACE = [
    ("    losses = []\n    for _ in range(num_steps):",
     "    losses = []\n    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)\n    for _ in range(num_steps):"),
]
