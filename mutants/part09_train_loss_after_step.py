"""train records the loss recomputed after the optimizer step instead of the one it stepped on."""
TARGET = "training"


def train(model, optimizer, data, num_steps, batch_size, rng, device="cpu"):
    losses = []
    for _ in range(num_steps):
        x, y = get_batch(data, batch_size, rng, device)
        F.mse_loss(model(x), y).backward()
        optimizer.step()
        optimizer.zero_grad()
        with torch.no_grad():
            losses.append(F.mse_loss(model(x), y).item())
    return losses
