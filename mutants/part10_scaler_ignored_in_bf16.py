"""autocast_train_step uses the scaler it is given only in float16: a GradScaler given with bfloat16 is
never asked to scale, step or update."""
TARGET = "mixed_precision"

REPLACE = [
    ("    if scaler is None:\n        loss.backward()",
     "    if scaler is None or dtype != torch.float16:  # only float16 needs the scaler\n        loss.backward()"),
]
