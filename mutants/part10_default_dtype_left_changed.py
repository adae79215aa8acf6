"""autocast_train_step sets torch's default dtype to the autocast dtype ("so new tensors match") and
never puts it back: the step itself is right, but every tensor its caller makes afterwards is
bfloat16. The harness restores torch's settings after each call, so only a check of what the call
left changed can see it."""
TARGET = "mixed_precision"

REPLACE = [
    ("    # autocast casts copies of the inputs of each matmul to `dtype`; the parameters stay float32\n",
     "    torch.set_default_dtype(dtype)\n"
     "    # autocast casts copies of the inputs of each matmul to `dtype`; the parameters stay float32\n"),
]
