"""train never calls zero_grad: every step's gradient is the sum of all gradients so far."""
TARGET = "training"


def train(model, optimizer, data, num_steps, batch_size, rng, device="cpu"):
    losses = []
    for _ in range(num_steps):
        x, y = get_batch(data, batch_size, rng, device)
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses
