"""autocast_train_step defaults to float16, not bfloat16: right whenever the caller names the dtype."""
TARGET = "mixed_precision"

REPLACE = [
    ("    dtype: torch.dtype = torch.bfloat16,\n    device_type: str = \"cpu\",",
     "    dtype: torch.dtype = torch.float16,\n    device_type: str = \"cpu\","),
]
