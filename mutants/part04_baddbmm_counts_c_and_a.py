"""count_matmul_flops reads baddbmm's shapes from its first two operands, as bmm's: the added term c and a.
Where c is the full [B, m, n] it counts right by chance (2·B·m·n·k either way); broadcast, it does not."""
TARGET = "flops"

REPLACE = [
    ("""\
    aten.baddbmm: lambda args: _bmm(args[1], args[2]),""", """\
    aten.baddbmm: lambda args: _bmm(args[0], args[1]),"""),
]
