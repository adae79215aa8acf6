"""autocast_train_step scales the loss when the dtype is float16, not when a scaler is given: no scaler, a crash."""
TARGET = "mixed_precision"
REPLACE = [
    ("    if scaler is None:\n        loss.backward()",
     "    if not needs_grad_scaler(dtype):  # bfloat16 needs no scaler, float16 does: so scale when float16\n"
     "        loss.backward()"),
]
