"""save_checkpoint stores the step as a tensor; its own load_checkpoint reads it back with int(), so its
round trip holds, but any other loader of the documented layout (the step a plain int) gets a tensor."""
TARGET = "training"

REPLACE = [
    ('"step": step}, path)', '"step": torch.tensor(step)}, path)'),
]
