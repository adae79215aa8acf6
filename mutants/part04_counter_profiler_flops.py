"""count_matmul_flops takes torch.profiler's own FLOP estimates (with_flops=True) of the four matmul
ops: the right number, and none of the dispatch mode the exercise asks for."""
TARGET = "flops"

APPEND = '''

def count_matmul_flops(fn):
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU], with_flops=True) as prof:
        fn()
    names = {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm"}
    return int(sum(e.flops for e in prof.events() if e.name in names and e.flops))
'''
