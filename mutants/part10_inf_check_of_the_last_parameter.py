"""The scaler's step replaced by a check of the last parameter's gradient alone: an overflow in a hidden
layer's gradient (the final layer's finite) still steps, and writes inf into the model."""
TARGET = "mixed_precision"

REPLACE = [
    ("        scaler.step(optimizer)  # unscales the gradients; skips the step if any is inf or NaN\n",
     "        scaler.unscale_(optimizer)\n"
     "        last = list(model.parameters())[-1].grad\n"
     "        if last is None or torch.isfinite(last).all():\n"
     "            optimizer.step()\n"),
]
