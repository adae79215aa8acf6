"""train records the loss recomputed after the optimizer step instead of the one it stepped on."""
TARGET = "training"

REPLACE = [
    ("        losses.append(loss.item())", """\
        with torch.no_grad():
            losses.append(F.mse_loss(model(x), y).item())"""),
]
