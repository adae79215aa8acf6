"""The checkpoint saves and restores the model only, not the optimizer's state."""
TARGET = "training"


def save_checkpoint(path, model, optimizer, step):
    torch.save({"model": model.state_dict(), "step": step}, path)


def load_checkpoint(path, model, optimizer):
    checkpoint = torch.load(path, weights_only=True)
    model.load_state_dict(checkpoint["model"])
    return int(checkpoint["step"])
