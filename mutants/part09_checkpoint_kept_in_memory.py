"""save_checkpoint keeps the state in a module-level dict and writes a file with nothing of it; load_checkpoint
restores from the dict: a round trip works in one process only."""
TARGET = "training"

APPEND = '''

_KEPT = {}


def save_checkpoint(path, model, optimizer, step):
    import copy

    _KEPT["state"] = (copy.deepcopy(model.state_dict()), copy.deepcopy(optimizer.state_dict()), step)
    torch.save({"step": step}, path)


def load_checkpoint(path, model, optimizer):
    torch.load(path, weights_only=True)
    model_state, optimizer_state, step = _KEPT["state"]
    model.load_state_dict(model_state)
    optimizer.load_state_dict(optimizer_state)
    return step
'''
