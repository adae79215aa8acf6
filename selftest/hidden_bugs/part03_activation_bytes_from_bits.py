"""cruncher_activation_bytes counts bits / 8 bytes per element: a float, so the count is exact only below 2**53."""
TARGET = "memory"
REPLACE = [
    ("return (num_layers + 1) * batch * dim * _bytes(dtype)",
     "return int((num_layers + 1) * batch * dim * torch.finfo(dtype).bits / 8)"),
]
