"""Lazy Part 10: a step that only clears gradients, and a flag that is never set."""


def needs_grad_scaler(dtype):
    return False


def autocast_train_step(model, optimizer, x, y, dtype=None, device_type="cpu", scaler=None):
    optimizer.zero_grad()
    return 0.0
