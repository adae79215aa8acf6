"""view_strides never merges a broadcast dim (stride 0) with the next: bias.expand(B, S, D).view(B * S, D) is None."""
TARGET = "strides"
REPLACE = [
    # "a repeated dim is no block of memory": an outer dim of stride 0 always ends the chunk, though 0 == size * 0
    ("shape[tensor_d - 1] != 1 and strides[tensor_d - 1] != tensor_numel * chunk_base_stride\n",
     "shape[tensor_d - 1] != 1 and (strides[tensor_d - 1] != tensor_numel * chunk_base_stride\n"
     "                                       or strides[tensor_d - 1] == 0)\n"),
]
