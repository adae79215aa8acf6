"""autocast_train_step takes float16 to always come with its scaler: scaler=None in float16, a crash."""
TARGET = "mixed_precision"
REPLACE = [
    ("    if scaler is None:\n        loss.backward()",
     "    if scaler is None and dtype != torch.float16:  # float16 always comes with its GradScaler\n"
     "        loss.backward()"),
]
