"""The loss is computed in the autocast dtype: the targets are cast down and the mean is never upcast."""
TARGET = "mixed_precision"


def autocast_train_step(model, optimizer, x, y, dtype=torch.bfloat16, device_type="cpu", scaler=None):
    with torch.autocast(device_type=device_type, dtype=dtype):
        pred = model(x)
    loss = F.mse_loss(pred, y.to(pred.dtype))
    if scaler is None:
        loss.backward()
        optimizer.step()
    else:
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    optimizer.zero_grad()
    return loss.item()
