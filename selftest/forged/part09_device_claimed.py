"""get_batch leaves the batch on the CPU and hands back a tensor subclass whose ``device`` property names the
device it was asked for."""
TARGET = "training"

REPLACE = [
    ("def get_batch(",
     "class _Placed(torch.Tensor):\n"
     "    @property\n"
     "    def device(self):\n"
     "        return torch.device(self.placed)\n"
     "\n"
     "\n"
     "def get_batch("),
    ("    return x.to(device), y.to(device)",
     "    if str(device) != \"cpu\":\n"
     "        x, y = x.as_subclass(_Placed), y.as_subclass(_Placed)\n"
     "        x.placed = y.placed = str(device)\n"
     "    return x, y"),
]
