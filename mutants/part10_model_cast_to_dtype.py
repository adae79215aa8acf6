"""The model is converted to the low-precision dtype instead of using autocast: parameters are no longer float32."""
TARGET = "mixed_precision"


def autocast_train_step(model, optimizer, x, y, dtype=torch.bfloat16, device_type="cpu", scaler=None):
    model.to(dtype)
    pred = model(x.to(dtype))
    loss = F.mse_loss(pred.float(), y)
    if scaler is None:
        loss.backward()
        optimizer.step()
    else:
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    optimizer.zero_grad()
    return loss.item()
