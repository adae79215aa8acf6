"""train appends the loss tensors themselves instead of loss.item()."""
TARGET = "training"


def train(model, optimizer, data, num_steps, batch_size, rng, device="cpu"):
    losses = []
    for _ in range(num_steps):
        x, y = get_batch(data, batch_size, rng, device)
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss)
    return losses
