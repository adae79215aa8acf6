"""The scaler is ignored: plain backward and optimizer.step() even when a GradScaler is given."""
TARGET = "mixed_precision"


def autocast_train_step(model, optimizer, x, y, dtype=torch.bfloat16, device_type="cpu", scaler=None):
    with torch.autocast(device_type=device_type, dtype=dtype):
        loss = F.mse_loss(model(x).float(), y)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    return loss.item()
