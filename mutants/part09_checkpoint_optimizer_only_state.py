"""The checkpoint saves the optimizer's param_groups but not its per-parameter state (moments, step)."""
TARGET = "training"


def save_checkpoint(path, model, optimizer, step):
    state = optimizer.state_dict()
    torch.save({"model": model.state_dict(), "optimizer": {"state": {}, "param_groups": state["param_groups"]},
                "step": step}, path)
