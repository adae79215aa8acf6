"""count_matmul_flops counts mm and addmm only: batched matmuls (bmm, baddbmm) are missed."""
TARGET = "flops"

_FORMULAS = {
    aten.mm: lambda args: _mm(args[0], args[1]),
    aten.addmm: lambda args: _mm(args[1], args[2]),
}
