"""The checkpoint keeps the model's parameters (named_parameters) and not its state_dict: buffers are lost,
and loading with strict=False hides it."""
TARGET = "training"

REPLACE = [
    ('"model": model.state_dict()', '"model": {name: p.detach() for name, p in model.named_parameters()}'),
    ('model.load_state_dict(checkpoint["model"])', 'model.load_state_dict(checkpoint["model"], strict=False)'),
]
