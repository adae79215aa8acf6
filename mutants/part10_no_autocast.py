"""No autocast at all: the forward and its matmuls run in float32."""
TARGET = "mixed_precision"


def autocast_train_step(model, optimizer, x, y, dtype=torch.bfloat16, device_type="cpu", scaler=None):
    loss = F.mse_loss(model(x), y)
    if scaler is None:
        loss.backward()
        optimizer.step()
    else:
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    optimizer.zero_grad()
    return loss.item()
