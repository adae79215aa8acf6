"""The counter takes addmm's n from its added term's last dim: right for a bias of shape (n,), wrong for
a column (m, 1) broadcast along n."""
TARGET = "flops"

REPLACE = [
    ("    aten.addmm: lambda args: _mm(args[1], args[2]),",
     "    aten.addmm: lambda args: 2 * args[1].shape[0] * args[1].shape[1] * args[0].shape[-1],"),
]
