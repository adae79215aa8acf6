"""count_matmul_flops counts one matrix of a batch: bmm is 2*m*k*n, the batch size forgotten."""
TARGET = "flops"

_FORMULAS = {
    aten.mm: lambda args: _mm(args[0], args[1]),
    aten.addmm: lambda args: _mm(args[1], args[2]),
    aten.bmm: lambda args: _mm(args[0][0], args[1][0]),
    aten.baddbmm: lambda args: _mm(args[1][0], args[2][0]),
}
