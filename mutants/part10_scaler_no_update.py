"""Scales and steps through the GradScaler but never calls scaler.update(): the scale never adapts."""
TARGET = "mixed_precision"


def autocast_train_step(model, optimizer, x, y, dtype=torch.bfloat16, device_type="cpu", scaler=None):
    with torch.autocast(device_type=device_type, dtype=dtype):
        loss = F.mse_loss(model(x).float(), y)
    if scaler is None:
        loss.backward()
        optimizer.step()
    else:
        scaler.scale(loss).backward()
        scaler.step(optimizer)
    optimizer.zero_grad()
    return loss.item()
