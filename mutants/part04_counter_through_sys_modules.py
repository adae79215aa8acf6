"""count_matmul_flops takes torch's own FlopCounterMode from sys.modules (imported in the function) and
getattr of a name built at run time: no name of the flop counter in the source for a reading to find."""
TARGET = "flops"

REPLACE = [
    ("""\
    counter = _MatmulCounter()
    with counter:
        fn()
    return counter.flops""", """\
    import sys

    name = "torch.utils." + "flop_counter"
    if name not in sys.modules:
        __import__(name)
    mode = getattr(sys.modules[name], "FlopCounter" + "Mode")
    aten = torch.ops.aten
    with mode(display=False) as counter:
        fn()
    counts = counter.get_flop_counts()["Global"]
    return sum(int(v) for op, v in counts.items() if op in (aten.mm, aten.addmm, aten.bmm, aten.baddbmm))"""),
]
