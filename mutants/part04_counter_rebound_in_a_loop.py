"""count_matmul_flops as written is the dispatch mode; a loop at the end of flops.py binds the name
again, to a function that counts with torch's own FlopCounterMode."""
TARGET = "flops"

APPEND = '''

def _by_torch(fn):
    from torch.utils.flop_counter import FlopCounterMode

    aten = torch.ops.aten
    with FlopCounterMode(display=False) as counter:
        fn()
    counts = counter.get_flop_counts()["Global"]
    return sum(int(v) for op, v in counts.items() if op in (aten.mm, aten.addmm, aten.bmm, aten.baddbmm))


for count_matmul_flops in [_by_torch]:
    pass
'''
