"""Returns the scaled loss (loss times the GradScaler's scale) instead of the loss."""
TARGET = "mixed_precision"


def autocast_train_step(model, optimizer, x, y, dtype=torch.bfloat16, device_type="cpu", scaler=None):
    with torch.autocast(device_type=device_type, dtype=dtype):
        loss = F.mse_loss(model(x).float(), y)
    if scaler is not None:
        loss = scaler.scale(loss)
    loss.backward()
    if scaler is None:
        optimizer.step()
    else:
        scaler.step(optimizer)
        scaler.update()
    optimizer.zero_grad()
    return loss.item()
