"""Steps the optimizer twice: optimizer.step() after scaler.step(), or twice without a scaler."""
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
        scaler.update()
    optimizer.step()
    optimizer.zero_grad()
    return loss.item()
