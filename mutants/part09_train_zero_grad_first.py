"""train zeroes the gradients at the start of each step, so the last step's gradients stay behind."""
TARGET = "training"


def train(model, optimizer, data, num_steps, batch_size, rng, device="cpu"):
    losses = []
    for _ in range(num_steps):
        optimizer.zero_grad()
        x, y = get_batch(data, batch_size, rng, device)
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses
