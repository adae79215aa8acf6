"""load_checkpoint loads the weights with assign=True: the model gets new parameter tensors, and the
optimizer, which still holds the old ones, never moves the model again."""
TARGET = "training"

REPLACE = [
    ('    model.load_state_dict(checkpoint["model"])', '    model.load_state_dict(checkpoint["model"], assign=True)'),
]
