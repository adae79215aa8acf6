"""kv_cache_bytes counts the keys and forgets the values (no factor 2)."""
TARGET = "memory"


def kv_cache_bytes(num_layers, batch, seq_len, num_kv_heads, head_dim, dtype):
    return num_layers * batch * seq_len * num_kv_heads * head_dim * _bytes(dtype)
