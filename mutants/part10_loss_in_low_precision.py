"""The loss is computed in the autocast dtype: the targets are cast down and the mean is never upcast."""
TARGET = "mixed_precision"

# dedented out of the autocast block, whose op lists might otherwise upcast the loss
REPLACE = [
    ("        loss = F.mse_loss(pred.float(), y.float())", "    loss = F.mse_loss(pred, y.to(pred.dtype))"),
]
