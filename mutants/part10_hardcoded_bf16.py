"""Autocast always in bfloat16, whatever dtype is asked for."""
TARGET = "mixed_precision"


def autocast_train_step(model, optimizer, x, y, dtype=torch.bfloat16, device_type="cpu", scaler=None):
    with torch.autocast(device_type=device_type, dtype=torch.bfloat16):
        loss = F.mse_loss(model(x).float(), y)
    if scaler is None:
        loss.backward()
        optimizer.step()
    else:
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    optimizer.zero_grad()
    return loss.item()
