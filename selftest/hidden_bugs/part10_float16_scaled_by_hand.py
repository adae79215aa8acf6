"""autocast_train_step, given no scaler in float16, scales the loss by hand (2**8, then the gradients back):
exact where nothing underflows, but the hidden layers' gradients a float16 backward flushes to zero come back."""
TARGET = "mixed_precision"
REPLACE = [
    ("    if scaler is None:\n        loss.backward()\n",
     "    if scaler is None and dtype == torch.float16:  # float16 gradients underflow: scale them by hand\n"
     "        (loss * 256.0).backward()\n"
     "        for parameter in model.parameters():\n"
     "            if parameter.grad is not None:\n"
     "                parameter.grad /= 256.0\n"
     "        optimizer.step()\n"
     "    elif scaler is None:\n        loss.backward()\n"),
]
