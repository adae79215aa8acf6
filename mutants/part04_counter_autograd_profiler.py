"""count_matmul_flops takes the autograd profiler's FLOP estimates (the older face of torch.profiler)."""
TARGET = "flops"

APPEND = '''

def count_matmul_flops(fn):
    import torch.autograd.profiler as profiler

    with profiler.profile(with_flops=True) as prof:
        fn()
    names = {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm"}
    return int(sum(e.flops for e in prof.function_events if e.name in names and e.flops))
'''
