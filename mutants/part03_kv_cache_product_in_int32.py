"""The KV-cache element count is multiplied in a torch int32 product (prod(dtype=torch.int32)), which wraps past 2**31."""
TARGET = "memory"
REPLACE = [
    ("    return 2 * math.prod((num_layers, batch, seq_len, num_kv_heads, head_dim)) * _bytes(dtype)",
     "    return 2 * int(torch.tensor((num_layers, batch, seq_len, num_kv_heads, head_dim)).prod(dtype=torch.int32)) * _bytes(dtype)"),
]
