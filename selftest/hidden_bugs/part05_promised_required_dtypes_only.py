"""promised_flops_per_sec accepts only the four required dtypes, though its own table also holds float64 peaks."""
TARGET = "roofline"
REPLACE = [
    # a fuller table, as the spec allows: the FP64 tensor-core peaks
    ("    torch.float8_e4m3fn: 1979e12,\n}", "    torch.float8_e4m3fn: 1979e12,\n    torch.float64: 67e12,\n}"),
    ('"A100": {torch.float32: 19.5e12, torch.bfloat16: 312e12, torch.float16: 312e12},',
     '"A100": {torch.float32: 19.5e12, torch.bfloat16: 312e12, torch.float16: 312e12, torch.float64: 19.5e12},'),
    # ... and a check of the dtype first, against the list the docstring names
    ("    # whole tokens only: \"NVIDIA GH200 480GB\" is not an H200\n",
     "    if dtype not in (torch.float32, torch.bfloat16, torch.float16, torch.float8_e4m3fn):\n"
     "        raise ValueError(f\"no peak for {dtype}\")\n"
     "    # whole tokens only: \"NVIDIA GH200 480GB\" is not an H200\n"),
]
