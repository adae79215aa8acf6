"""The step runs its forward under a function mode of its own that casts each matmul's operands to dtype,
not under torch.autocast: the matmuls' dtypes and values are autocast's, but autocast is never on."""
TARGET = "mixed_precision"

REPLACE = [
    ("    with torch.autocast(device_type=device_type, dtype=dtype):\n",
     "    class _Cast(torch.overrides.TorchFunctionMode):\n"
     "        def __torch_function__(self, func, types, args=(), kwargs=None):\n"
     "            if func in (torch.matmul, torch.Tensor.matmul, torch.Tensor.__matmul__) and len(args) == 2 \\\n"
     "                    and all(a.device.type == device_type for a in args):\n"
     "                args = tuple(a.to(dtype) for a in args)\n"
     "            return func(*args, **(kwargs or {}))\n\n"
     "    with _Cast():\n"),
]
