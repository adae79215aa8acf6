"""load_checkpoint restores the state but returns 0 instead of the saved step."""
TARGET = "training"


def load_checkpoint(path, model, optimizer):
    checkpoint = torch.load(path, weights_only=True)
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    return 0
