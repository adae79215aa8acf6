"""count_matmul_flops counts mm and addmm only: batched matmuls (bmm, baddbmm) are missed."""
TARGET = "flops"

REPLACE = [
    ("""\
    aten.bmm: lambda args: _bmm(args[0], args[1]),
    aten.baddbmm: lambda args: _bmm(args[1], args[2]),
""", ""),
]
