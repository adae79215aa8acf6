"""The scaler's step replaced by a check of the first parameter's gradient alone: an overflow in the final
layer's gradient (the hidden layers' finite) still steps."""
TARGET = "mixed_precision"

REPLACE = [
    ("        scaler.step(optimizer)  # unscales the gradients; skips the step if any is inf or NaN\n",
     "        scaler.unscale_(optimizer)\n"
     "        first = next(iter(model.parameters())).grad\n"
     "        if first is None or torch.isfinite(first).all():\n"
     "            optimizer.step()\n"),
]
