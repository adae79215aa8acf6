"""count_matmul_flops runs torch's own FlopCounterMode and keeps its counts of the four matmul ops:
the right number, and none of the dispatch mode the exercise asks for."""
TARGET = "flops"

APPEND = '''

def count_matmul_flops(fn):
    from torch.utils.flop_counter import FlopCounterMode

    aten = torch.ops.aten
    with FlopCounterMode(display=False) as counter:
        fn()
    counts = counter.get_flop_counts()["Global"]
    return sum(int(v) for op, v in counts.items() if op in (aten.mm, aten.addmm, aten.bmm, aten.baddbmm))
'''
