"""autocast_train_step's dtype defaults to float16 (CUDA AMP's habit), not the spec's bfloat16: right whenever a
dtype is given, an autocast to float16 when the step is called with the defaults alone."""
TARGET = "mixed_precision"

REPLACE = [
    ("    dtype: torch.dtype = torch.bfloat16,\n", "    dtype: torch.dtype = torch.float16,\n"),
]
